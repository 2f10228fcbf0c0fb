// `npm run typecheck`, which `npm test` runs before the suite: type-checks every tsconfig*.json of the project, each in
// its own tsc, as many at once as there are cores. Each check keeps tsc's incremental build information in
// dist/typecheck/, so the next run re-checks only what changed. Exits with 1, printing tsc's errors under each failing
// project's name, when any project has a type error.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const BUILD_INFO_DIR = join(root, 'dist', 'typecheck');
const PROJECT_FILE = /^tsconfig(\.[\w-]+)?\.json$/;

interface ProjectCheck {
  project: string;
  passed: boolean;
  output: string;
}

/** Every project in the root folder: the relay and tools (Node), main, the preload, the settings UI, the overlays. */
function typeScriptProjects(): string[] {
  return readdirSync(root)
    .filter((name) => PROJECT_FILE.test(name))
    .sort();
}

function checkProject(project: string): Promise<ProjectCheck> {
  const buildInfo = join(BUILD_INFO_DIR, `${basename(project, '.json')}.tsbuildinfo`);
  const options = [
    '--noEmit',
    '--incremental',
    '--tsBuildInfoFile',
    buildInfo,
    '--pretty',
    String(Boolean(process.stderr.isTTY)),
  ];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSC, '-p', join(root, project), ...options],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ project, passed: error === null, output: `${stdout}${stderr}`.trim() }),
    );
  });
}

/** Checks the projects, at most `parallel` at a time, in the order given. */
async function checkAll(projects: string[], parallel: number): Promise<ProjectCheck[]> {
  const waiting = [...projects];
  const checks: ProjectCheck[] = [];
  const checkWaiting = async () => {
    for (let project = waiting.shift(); project !== undefined; project = waiting.shift())
      checks.push(await checkProject(project));
  };
  await Promise.all(Array.from({ length: Math.min(parallel, waiting.length) }, checkWaiting));
  return checks.sort((one, other) => projects.indexOf(one.project) - projects.indexOf(other.project));
}

const started = performance.now();
const projects = typeScriptProjects();
const checks = await checkAll(projects, availableParallelism());
const failed = checks.filter((check) => !check.passed);
for (const check of failed) console.error(`\n${check.project}:\n${check.output}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (failed.length > 0) {
  console.error(`Type errors in ${failed.map((check) => check.project).join(', ')} (${seconds} s)`);
  process.exit(1);
}
console.log(`Type-checked ${projects.join(', ')} in ${seconds} s`);
