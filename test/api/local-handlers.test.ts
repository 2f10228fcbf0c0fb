// A local handler sees the call through the route table alone: its parameters (path parameters among them), the
// headers it declares, the key, a description of the call and the services; never the transport's request or response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { allRoutes } from '../../relay/routes.ts';
import type { LocalContext, LocalRoute } from '../../relay/routing/route.ts';

let relay: TestRelay;
let key: string;
beforeAll(async () => {
  relay = await startTestRelay();
  key = await relay.createKey({ scopes: ['session:manage'] });
});
afterAll(() => relay.close());

/** Runs `act` while the route's handler hands each context it gets to `seen`. */
async function watching(
  method: string,
  path: string,
  act: () => Promise<unknown>,
): Promise<LocalContext<Record<string, unknown>>[]> {
  const route = allRoutes.find((candidate) => candidate.method === method && candidate.path === path) as LocalRoute;
  const handle = route.handle;
  const seen: LocalContext<Record<string, unknown>>[] = [];
  route.handle = (context) => {
    seen.push(context);
    return handle(context);
  };
  try {
    await act();
  } finally {
    route.handle = handle;
  }
  return seen;
}

describe("a local handler's context", () => {
  it.each([
    ['public', 'GET', '/pair/{code}/state', () => relay.api(undefined, 'GET', '/pair/ABCD2345/state')],
    ['keyed', 'GET', '/session', () => relay.api(key, 'GET', '/session')],
    ['admin', 'GET', '/admin/scopes', () => relay.admin('GET', '/admin/scopes')],
  ])('holds no request or response of the transport (%s route %s %s)', async (_access, method, path, act) => {
    const [context] = await watching(method, path, act);
    expect(Object.keys(context!).sort()).toEqual([
      'call',
      'headers',
      'key',
      'link',
      'linkSecret',
      'parameters',
      'services',
    ]);
    expect(context).toMatchObject({ link: undefined, linkSecret: undefined });
    const { call } = context!;
    expect(Object.keys(call).sort()).toEqual(['header', 'relayOrigin', 'remoteAddress', 'transport']);
    expect(call).toMatchObject({ transport: 'http', remoteAddress: '127.0.0.1', relayOrigin: relay.baseUrl });
    expect(call.header('host')).toBe(new URL(relay.baseUrl).host);
  });

  it('gets path parameters as parsed parameters', async () => {
    const [context] = await watching('GET', '/pair/{code}/state', () =>
      relay.api(undefined, 'GET', '/pair/ABCD2345/state'),
    );
    expect(context!.parameters).toEqual({ code: 'ABCD2345' });
  });

  it('gets the headers its route declares, parsed, and only those', async () => {
    const headers = {
      'x-foundry-url': ' http://localhost:30000 ',
      'x-username': 'Gamemaster',
      'x-other': 'not declared',
    };
    const [context] = await watching('POST', '/session-handshake', () =>
      relay.api(key, 'POST', '/session-handshake', { headers }),
    );
    expect(context!.headers).toEqual({ 'x-foundry-url': 'http://localhost:30000', 'x-username': 'Gamemaster' });
  });
});

describe('declared headers', () => {
  it('a missing one is a 400 that names the header', async () => {
    const answer = await relay.api(key, 'POST', '/session-handshake', {
      headers: { 'x-foundry-url': 'http://localhost:30000' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Header 'x-username' is required");
  });

  it('a bad one is a 400 that names the header and says what it must be', async () => {
    const answer = await relay.api(key, 'POST', '/session-handshake', {
      headers: { 'x-foundry-url': 'ftp://localhost', 'x-username': 'Gamemaster' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Header 'x-foundry-url' must be an http(s) URL");
  });
});
