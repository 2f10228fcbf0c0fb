// `npm run readme:groups`: writes the README's list of route groups from the route tables (relay/api/index.ts), between
// its api-groups markers; test/readme.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeGroups } from '../relay/routes.ts';

const README_PATH = join(import.meta.dirname, '..', 'README.md');
export const GROUPS_SECTION = /(<!-- api-groups:start -->\n)([\s\S]*?)(\n<!-- api-groups:end -->)/;

/** Every group with its operations, as a markdown table under a count. */
export function groupsTable(): string {
  const operations = routeGroups.reduce((count, group) => count + group.routes.length, 0);
  return [
    `${routeGroups.length} groups, ${operations} operations:`,
    '',
    '| Group | Operations |',
    '|---|---|',
    ...routeGroups.map(
      (group) => `| ${group.name} | ${group.routes.map((route) => `\`${route.method} ${route.path}\``).join(', ')} |`,
    ),
  ].join('\n');
}

if (import.meta.main) {
  const readme = readFileSync(README_PATH, 'utf8');
  if (!GROUPS_SECTION.test(readme))
    throw new Error('README.md has no <!-- api-groups:start --> … <!-- api-groups:end --> section');
  writeFileSync(
    README_PATH,
    readme.replace(
      GROUPS_SECTION,
      (_all, start: string, _old: string, end: string) => `${start}${groupsTable()}${end}`,
    ),
  );
}
