import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonFile } from '../../relay/storage/json-file.ts';

describe('the JSON store file', () => {
  let dir: string;
  let path: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tabletop-relay-json-'));
    path = join(dir, 'api-keys.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('removes its own temporary files left by a crash when it opens, and nobody else’s', () => {
    const leftovers = ['api-keys.json.0123456789ab.tmp', 'api-keys.json.ffffffffffff.tmp'];
    const others = ['worlds.json.0123456789ab.tmp', 'api-keys.json.notes.tmp', 'api-keys.json'];
    for (const name of [...leftovers, ...others]) writeFileSync(join(dir, name), '{"half": ');

    new JsonFile(path);

    expect(readdirSync(dir).sort()).toEqual([...others].sort());
  });

  it('keeps the document it replaces as the last good copy', () => {
    const file = new JsonFile<{ version: number }>(path);
    file.write({ version: 1 });
    file.write({ version: 2 });

    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 2 });
    expect(JSON.parse(readFileSync(`${path}.bak`, 'utf8'))).toEqual({ version: 1 });
  });

  it('starts from the last good copy when the file is damaged, and keeps that copy until a good write', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = new JsonFile<{ version: number }>(path);
    first.write({ version: 1 });
    first.write({ version: 2 });
    writeFileSync(path, '{"version": 2, "trunc');

    const reopened = new JsonFile<{ version: number }>(path);
    expect(reopened.read({ version: 0 })).toEqual({ version: 1 });
    expect(warn).toHaveBeenCalledOnce();

    reopened.write({ version: 3 });
    expect(JSON.parse(readFileSync(`${path}.bak`, 'utf8'))).toEqual({ version: 1 });
    expect(new JsonFile<{ version: number }>(path).read({ version: 0 })).toEqual({ version: 3 });
    warn.mockRestore();
  });

  it('starts from the last good copy when the file itself is missing', () => {
    const file = new JsonFile<string[]>(path);
    file.write(['a']);
    file.write(['a', 'b']);
    rmSync(path);

    expect(new JsonFile<string[]>(path).read([])).toEqual(['a']);
  });

  it('starts empty without any file, and refuses to guess when both the file and its copy are damaged', () => {
    expect(new JsonFile<string[]>(path).read([])).toEqual([]);
    writeFileSync(path, '[');
    writeFileSync(`${path}.bak`, '[');
    expect(() => new JsonFile<string[]>(path).read([])).toThrow(/is not valid JSON/);
  });
});
