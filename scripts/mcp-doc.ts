// `npm run docs:mcp`: writes docs/MCP.md's list of toolsets and tools from the route tables, between its mcp-tools
// markers; test/api/mcp-doc.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TOOLSETS, TOOLSET_NAMES, TOOLSETS } from '../contracts/assistants.ts';
import { allRoutes } from '../relay/routes.ts';
import { scopeOf } from '../relay/routing/route.ts';
import { toolsOf, type RouteTool } from '../relay/mcp/tools.ts';

export const MCP_DOC_PATH = join(import.meta.dirname, '..', 'docs', 'MCP.md');
export const TOOLS_SECTION = /(<!-- mcp-tools:start -->\n)([\s\S]*?)(\n<!-- mcp-tools:end -->)/;

function hints({ tool }: RouteTool): string {
  const annotations = tool.annotations ?? {};
  if (annotations.readOnlyHint) return 'reads';
  const words = [
    annotations.destructiveHint ? 'destructive' : 'changes',
    annotations.idempotentHint ? 'idempotent' : '',
  ];
  return words.filter((word) => word !== '').join(', ');
}

/** Every toolset with its tools, as markdown: what each does, its route, its scope and its hints. */
export function toolsDocument(): string {
  const tools = toolsOf(allRoutes);
  const lines = [`${tools.length} tools in ${TOOLSET_NAMES.length} toolsets.`];
  for (const name of TOOLSET_NAMES) {
    const inSet = tools.filter((tool) => tool.toolset === name);
    const { title, blurb, worstCase } = TOOLSETS[name];
    lines.push(
      '',
      `### ${title} (\`${name}\`)${DEFAULT_TOOLSETS.includes(name) ? ', offered by default' : ''}`,
      '',
      `${blurb}. At worst, a misled assistant causes: ${worstCase}.`,
      '',
      '| Tool | What it does | Route | Scope | Hints |',
      '|---|---|---|---|---|',
      ...inSet.map(
        (tool) =>
          `| \`${tool.tool.name}\` | ${tool.route.summary.replaceAll('|', '\\|')} | \`${tool.route.method} ${tool.route.path}\` | \`${scopeOf(tool.route)}\` | ${hints(tool)} |`,
      ),
    );
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const document = readFileSync(MCP_DOC_PATH, 'utf8');
  if (!TOOLS_SECTION.test(document)) throw new Error('docs/MCP.md has no <!-- mcp-tools:start --> … end section');
  writeFileSync(
    MCP_DOC_PATH,
    document.replace(
      TOOLS_SECTION,
      (_all, start: string, _old: string, end: string) => `${start}${toolsDocument()}${end}`,
    ),
  );
}
