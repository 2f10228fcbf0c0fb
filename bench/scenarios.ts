// The HTTP calls the benchmark and the soak drive, the same against the relay and the bare forwarder.

export interface Scenario {
  name: string;
  /** What the figure says about the server: a world round trip, or work the server does alone. */
  measures: 'world round trip' | 'relay only';
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

export const ROUND_TRIP: Scenario = { name: 'GET /rolls', measures: 'world round trip', method: 'GET', path: '/rolls' };
export const RELAY_ONLY: Scenario = { name: 'GET /clients', measures: 'relay only', method: 'GET', path: '/clients' };
export const POST_WITH_BODY: Scenario = {
  name: 'POST /roll',
  measures: 'world round trip',
  method: 'POST',
  path: '/roll',
  body: JSON.stringify({ formula: '1d20+5', flavor: 'Attack', createChatMessage: true }),
};
/** Only the relay serves it; the soak adds it to the mix. */
export const SEARCH: Scenario = {
  name: 'GET /search',
  measures: 'world round trip',
  method: 'GET',
  path: '/search?query=goblin&limit=20',
};

/** A write the change journal records: read before, stored, sent, read again (bench/journal.ts). */
export const JOURNALED_WRITE: Scenario = {
  name: 'PUT /update',
  measures: 'world round trip',
  method: 'PUT',
  path: '/update',
  body: JSON.stringify({ uuid: 'Actor.actor0', data: { 'system.attributes.hp.value': 7 } }),
};

export const BENCH_SCENARIOS = [ROUND_TRIP, RELAY_ONLY, POST_WITH_BODY];

export function headersFor(scenario: Scenario, apiKey: string): Record<string, string> {
  return scenario.body === undefined
    ? { 'x-api-key': apiKey }
    : { 'x-api-key': apiKey, 'content-type': 'application/json' };
}
