import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectRawWorld } from '../harness/raw-world.ts';
import { startTestRelay } from '../harness/relay.ts';

const JSON_FILE_MODULE = fileURLToPath(new URL('../../relay/storage/json-file.ts', import.meta.url));

describe('faults', () => {
  it('a write interrupted by kill -9 never leaves a corrupt file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tabletop-relay-kill-'));
    const path = join(dir, 'api-keys.json');
    const writer = join(dir, 'writer.ts');
    writeFileSync(
      writer,
      `import { JsonFile } from ${JSON.stringify(JSON_FILE_MODULE)};
const file = new JsonFile(${JSON.stringify(path)});
const padding = 'k'.repeat(200_000);
let generation = 0;
const write = () => file.write({ generation: ++generation, padding, keys: Array.from({ length: 50 }, (_, index) => ({ index, generation })) });
// The first write completes before the test starts killing: a machine under load must not make it see no file at all.
write();
process.send?.('ready');
for (;;) write();
`,
    );
    for (let round = 0; round < 8; round += 1) {
      const child = spawn(process.execPath, [writer], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      await new Promise((resolve) => child.once('message', resolve));
      await new Promise((resolve) => setTimeout(resolve, 30 + round * 17));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const document = JSON.parse(readFileSync(path, 'utf8'));
      expect(document.keys.every((key: { generation: number }) => key.generation === document.generation)).toBe(true);
    }
    const leftovers = readdirSync(dir).filter((name) => name.endsWith('.tmp'));
    expect(leftovers.length).toBeLessThanOrEqual(8);
  }, 30_000);

  it('a world that reconnects does not receive the calls that failed when it dropped', async () => {
    const relay = await startTestRelay({ timeoutOverrideMs: 3000 });
    try {
      const { token } = relay.relay.services.connectionTokens.issue('fvtt_flaky', 'flaky', 'demo');
      const key = await relay.createKey({ scopes: ['roll:read'] });
      const first = await connectRawWorld(relay.wsUrl, 'fvtt_flaky', token);
      const call = relay.api(key, 'GET', '/rolls');
      await first.next((message) => message.type === 'rolls');
      first.socket.terminate();
      expect((await call).status).toBe(503);
      const second = await connectRawWorld(relay.wsUrl, 'fvtt_flaky', token);
      second.send({ type: 'ping' });
      await second.next((message) => message.type === 'pong');
      expect(second.received.filter((message) => message.type === 'rolls')).toEqual([]);
      expect(relay.relay.services.tabletop.pending.size).toBe(0);
      const next = relay.api(key, 'GET', '/rolls');
      const request = await second.next((message) => message.type === 'rolls');
      second.send({ type: 'rolls-result', requestId: request.requestId, data: [] });
      expect((await next).status).toBe(200);
      second.close();
    } finally {
      await relay.close();
    }
  });
});
