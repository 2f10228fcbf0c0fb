// GET /.well-known/tabletop-relay: what a tool that has the relay's address reads first, without a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { RELAY_VERSION } from '../../relay/version.ts';

let relay: TestRelay;

beforeAll(async () => {
  relay = await startTestRelay();
});
afterAll(() => relay.close());

const wellKnown = () => relay.api(undefined, 'GET', '/.well-known/tabletop-relay');

describe('GET /.well-known/tabletop-relay', () => {
  it('names the product, its version, the API, its documentation, the sockets and how to ask for a key', async () => {
    const answer = await wellKnown();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      product: 'Tabletop Relay',
      version: RELAY_VERSION,
      api: '/',
      docs: '/docs',
      openapi: '/openapi.json',
      websockets: { api: '/ws/api', world: '/relay' },
      auth: { header: 'x-api-key', keyRequest: { method: 'POST', path: '/auth/key-request' } },
      lan: { access: false, urls: [], dnsSd: '_tabletop-relay._tcp' },
      paused: false,
    });
  });

  it('points at paths the relay serves', async () => {
    const { body } = await wellKnown();
    expect((await relay.api(undefined, 'GET', body.docs)).status).toBe(200);
    const openapi = await relay.api(undefined, 'GET', body.openapi);
    expect(openapi.status).toBe(200);
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/.well-known/tabletop-relay', body.auth.keyRequest.path]),
    );
    expect(openapi.body.paths[body.auth.keyRequest.path]).toHaveProperty('post');
  });

  it('says when LAN access is on and where the LAN reaches the relay, and when the relay is paused', async () => {
    await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
    await relay.admin('POST', '/admin/pause');
    try {
      const { body } = await wellKnown();
      expect(body.lan.access).toBe(true);
      expect(body.lan.urls).toEqual(relay.relay.status().lan.urls);
      expect(body.paused).toBe(true);
    } finally {
      await relay.admin('POST', '/admin/resume');
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    }
  });
});
