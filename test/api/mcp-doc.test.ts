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

  it("maps every tool the other servers' docs name to a tool here", () => {
    const mapped = DOCUMENT.slice(DOCUMENT.indexOf('## Coming from another MCP server'));
    const names = new Set(toolsOf(allRoutes).map(({ tool }) => tool.name));
    const named = [...mapped.matchAll(/`([a-z_0-9]+)`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(40);
    for (const name of named) expect(names, `${name} is not a tool`).toContain(name);
  });
});
