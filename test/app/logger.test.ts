import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileLogger } from '../../main/logger.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'ttr-logs-'));
  folders.push(made);
  return join(made, 'logs');
}

describe('rotating file logger', () => {
  it('writes timestamped lines with their level and error stack', () => {
    const logs = folder();
    const logger = createFileLogger({ folder: logs, now: () => new Date('2026-03-01T20:00:00Z') });
    logger.info('Relay listening at http://127.0.0.1:3010');
    logger.error('Relay did not start', new Error('EADDRINUSE'));
    const text = readFileSync(join(logs, 'main.log'), 'utf8');
    expect(text).toMatch(/^2026-03-01T20:00:00.000Z INFO {2}Relay listening at http:\/\/127.0.0.1:3010\n/);
    expect(text).toMatch(/ERROR Relay did not start Error: EADDRINUSE/);
  });

  it('starts a new file past the size limit and keeps only the last few', () => {
    const logs = folder();
    const logger = createFileLogger({ folder: logs, maxBytes: 200, keep: 2 });
    for (let line = 0; line < 40; line += 1) logger.info(`line ${line} ${'x'.repeat(40)}`);
    expect(readdirSync(logs).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const file of readdirSync(logs)) expect(readFileSync(join(logs, file)).length).toBeLessThanOrEqual(200);
    expect(readFileSync(join(logs, 'main.log'), 'utf8')).toContain('line 39');
  });

  it('does not throw when it cannot write', () => {
    const file = join(folder(), '..', 'a-file');
    writeFileSync(file, '');
    const logger = createFileLogger({ folder: join(file, 'logs') });
    expect(() => logger.warn('lost')).not.toThrow();
  });
});
