// Item 7, new sign-in links: POST /admin/login-links is the admin's only. Without the admin token or a session it gives
// nothing, and a page on another port of 127.0.0.1 cannot use the GM's session cookie to get one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

let relay: TestRelay;
let cookie: string;

beforeAll(async () => {
  relay = await startTestRelay();
  const login = await fetch(relay.relay.createAdminLoginUrl(), { redirect: 'manual' });
  cookie = /^(ttr_admin=[0-9a-f]+)/.exec(login.headers.get('set-cookie')!)![1]!;
});

afterAll(() => relay.close());

describe('item 07: POST /admin/login-links', () => {
  it('gives nothing without the admin token or a session', async () => {
    const answer = await call(relay.baseUrl, 'POST', '/admin/login-links', { body: {} });
    expect(answer.status).toBe(401);
    expect(answer.text).not.toMatch(/code=/);
  });

  it('gives nothing for a wrong token', async () => {
    const answer = await call(relay.baseUrl, 'POST', '/admin/login-links', {
      body: {},
      headers: { authorization: `Bearer ${'0'.repeat(64)}` },
    });
    expect(answer.status).toBe(401);
  });

  it('refuses the session cookie sent by another page, by Origin or Sec-Fetch-Site', async () => {
    const otherPages: Record<string, string>[] = [
      { origin: 'http://127.0.0.1:1' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of otherPages) {
      const answer = await call(relay.baseUrl, 'POST', '/admin/login-links', {
        body: {},
        headers: { cookie, ...headers },
      });
      expect(answer.status).toBe(403);
      expect(answer.text).not.toMatch(/code=/);
    }
  });

  it('takes no form post, which a page could send without a preflight', async () => {
    const answer = await call(relay.baseUrl, 'POST', '/admin/login-links', {
      body: 'x=1',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(415);
  });

  it('gives the settings UI session and the admin token a link', async () => {
    expect((await call(relay.baseUrl, 'POST', '/admin/login-links', { body: {}, headers: { cookie } })).status).toBe(
      201,
    );
    expect((await relay.admin('POST', '/admin/login-links', {})).status).toBe(201);
  });
});
