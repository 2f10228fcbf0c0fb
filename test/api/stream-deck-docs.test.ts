// docs/integrations/stream-deck.md is a contract: every button in its table, and every command of its terminal block,
// runs here as written against the sandbox world, with a key obtained through a key request for the scopes it names.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

const run = promisify(execFile);
const PAGE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'integrations', 'stream-deck.md'), 'utf8');
const ACTOR_PLACEHOLDER = 'Actor.YOUR_ACTOR_ID';

interface Button {
  name: string;
  method: string;
  path: string;
  body: string | undefined;
}

const unquoted = (cell: string) => cell.trim().replace(/^`|`$/g, '');

/** The rows of the first table at or after `marker`, without its header and separator lines. */
function tableAfter(marker: string): string[][] {
  const lines = PAGE.slice(PAGE.indexOf(marker)).split('\n');
  const header = lines.findIndex((line) => line.startsWith('|'));
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1));
  }
  return rows;
}

const BUTTONS: Button[] = tableAfter('<!-- stream-deck-buttons').map(([name, method, path, body]) => ({
  name: name!.trim(),
  method: unquoted(method!),
  path: unquoted(path!),
  body: body!.includes('{') ? unquoted(body!) : undefined,
}));

const SCOPES = tableAfter('| Scope | For |').map(([scope]) => unquoted(scope!));

let harness: WorldHarness;
let key: string;
let actorUuid: string;

beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 100 } });
  harness.world.game.settings.allowMacroExecute = true;
  const request = await call(harness.baseUrl, 'POST', '/auth/key-request', {
    body: { appName: 'Stream Deck', scopes: SCOPES },
  });
  await harness.admin('POST', `/admin/key-requests/${request.body.code}/approve`, {});
  key = (await call(request.body.pollUrl, 'GET', request.body.pollUrl)).body.apiKey;
  const actors = await harness.get('/search', { query: 'Thorin', filter: 'Actor' });
  actorUuid = actors.body.results[0].uuid;
});
afterAll(() => harness.close());

const onSandbox = (text: string) => text.replaceAll(ACTOR_PLACEHOLDER, actorUuid);

describe('docs/integrations/stream-deck.md', () => {
  it('asks for exactly the scopes its buttons need', () => {
    expect(SCOPES).toEqual(['roll:execute', 'playlist:control', 'encounter:manage', 'macro:execute', 'effects:write']);
    expect(BUTTONS.length).toBeGreaterThanOrEqual(9);
  });

  it.each(BUTTONS.map((button) => [button.name, button] as const))('%s works with that key', async (_, button) => {
    const answer = await harness.api(key, button.method, onSandbox(button.path), {
      body: button.body === undefined ? undefined : JSON.parse(onSandbox(button.body)),
    });
    expect(answer.status, answer.text).toBe(200);
  });

  it('the toggle puts the condition on and takes it off', async () => {
    const statuses = async () =>
      (await harness.get('/effects', { uuid: actorUuid })).body.data.effects.flatMap(
        (effect: { statuses?: string[] }) => effect.statuses ?? [],
      ) as string[];
    const [on, off] = BUTTONS.filter((button) => button.path.includes('/effects'));
    await harness.api(key, on!.method, on!.path, { body: JSON.parse(onSandbox(on!.body!)) });
    expect(await statuses()).toContain('prone');
    await harness.api(key, off!.method, onSandbox(off!.path));
    expect(await statuses()).not.toContain('prone');
  });

  it("the terminal block's commands succeed as written", async () => {
    const block = /## 4\.[\s\S]*?```sh\n([\s\S]*?)```/.exec(PAGE)![1]!;
    const script = onSandbox(block).replaceAll('http://127.0.0.1:3010', harness.baseUrl);
    const curlFailing = `set -eo pipefail\ncurl() { command curl --fail-with-body --silent --show-error "$@"; }\n${script}`;
    const { stdout } = await run('bash', ['-c', curlFailing], { env: { ...process.env, KEY: key } });
    expect(stdout).toContain('"success":true');
  });
});
