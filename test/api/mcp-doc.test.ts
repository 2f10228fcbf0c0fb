// docs/MCP.md lists every toolset and tool as the route tables make them, and every tool an AI assistant can be offered
// is in it: a route added, renamed or moved to another toolset changes the document, or this fails.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_DOC_PATH, TOOLS_SECTION, toolsDocument } from '../../scripts/mcp-doc.ts';
import { allRoutes } from '../../relay/routes.ts';
import { toolsOf } from '../../relay/mcp/tools.ts';

const DOCUMENT = readFileSync(MCP_DOC_PATH, 'utf8');

describe('docs/MCP.md', () => {
  it('lists the toolsets and tools the route tables make (npm run docs:mcp writes it)', () => {
    const listed = DOCUMENT.match(TOOLS_SECTION)?.[2];
    expect(listed, 'docs/MCP.md needs the mcp-tools markers').toBeDefined();
    expect(listed, 'The route tables changed: run npm run docs:mcp').toBe(toolsDocument());
  });

  it('names every tool, and each tool once', () => {
    const names = toolsOf(allRoutes).map(({ tool }) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(DOCUMENT).toContain(`| \`${name}\` |`);
  });

  it('maps every tool of the other Foundry MCP servers, as many as each lists, to tools here or says why none', () => {
    const section = DOCUMENT.slice(DOCUMENT.indexOf('## Coming from another Foundry MCP server'));
    const names = new Set(toolsOf(allRoutes).map(({ tool }) => tool.name));
    const servers = section.split('\n### ').slice(1);
    expect(servers).toHaveLength(3);
    for (const server of servers) {
      const counted = Number(/, (\d+) tools\n/.exec(server)?.[1]);
      const rows = [...server.matchAll(/^\| `([a-z_0-9]+)` \| (.+) \|$/gm)];
      expect(rows, server.split('\n')[0]).toHaveLength(counted);
      for (const [, theirs, here] of rows) {
        const ours = [...here!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
        if (ours.length === 0) expect(here, theirs).toMatch(/^(no operation|none needed)/);
        for (const name of ours) expect(names, `${theirs} → ${name}, which is not a tool`).toContain(name);
      }
    }
  });
});
