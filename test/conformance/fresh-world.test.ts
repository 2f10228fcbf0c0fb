// Issue 27, item 5: the sandbox world starts with an encounter in its courtyard, while the reference relay's encounter
// tests expect a world with none until they start one. `npm run demo -- --empty-encounters` starts it without.
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoWorld, type DemoWorld } from '../../cli/demo.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

let relay: TestRelay | undefined;
let demo: DemoWorld | undefined;
afterEach(async () => {
  await demo?.stop();
  await relay?.close();
  demo = relay = undefined;
});

async function encountersOf(options: { emptyEncounters?: boolean }): Promise<unknown[]> {
  relay = await startTestRelay({ capture: false });
  demo = await startDemoWorld(relay.relay, { seed: 42, ...options });
  const answer = await relay.api(demo.apiKey, 'GET', '/encounters');
  expect(answer.status, answer.text).toBe(200);
  return answer.body.encounters;
}

describe('a fresh world for the reference suites', () => {
  it('the demo world starts with its seeded encounter', async () => {
    expect(await encountersOf({})).toHaveLength(1);
  });

  it('with emptyEncounters it has none, until a caller starts one', async () => {
    expect(await encountersOf({ emptyEncounters: true })).toEqual([]);
    const started = await relay!.api(demo!.apiKey, 'POST', '/start-encounter', { body: {} });
    expect(started.status, started.text).toBe(200);
    expect((await relay!.api(demo!.apiKey, 'GET', '/encounters')).body.encounters).toHaveLength(1);
  });
});
