// The MCP authorization flow end to end with the SDK's own OAuth client functions: discovery from /mcp's 401,
// registration, authorization with PKCE, the GM's approval through the admin API (the approval card's call), the
// code for a token, and that token on /mcp: an ordinary key with the toolsets the GM granted.
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  extractResourceMetadataUrl,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpClient, toolNames } from '../harness/mcp.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
const REDIRECT = 'http://127.0.0.1:33418/callback';

beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 50 } });
});
afterAll(() => harness?.close());

/** Follows the sign-in as the GM's browser would: /oauth/authorize, then the waiting page until it redirects. */
async function openInBrowser(url: URL): Promise<Response> {
  const first = await fetch(url, { redirect: 'manual' });
  expect(first.status, await first.clone().text()).toBe(303);
  return fetch(new URL(first.headers.get('location')!, url), { redirect: 'manual' });
}

async function signIn(scope?: string) {
  const unauthorized = await fetch(`${harness.baseUrl}/mcp`, { method: 'POST' });
  const resourceMetadataUrl = extractResourceMetadataUrl(unauthorized)!;
  const resource = await discoverOAuthProtectedResourceMetadata(`${harness.baseUrl}/mcp`, { resourceMetadataUrl });
  const authorizationServer = resource.authorization_servers![0]!;
  const metadata = (await discoverAuthorizationServerMetadata(authorizationServer))!;
  const clientInformation = await registerClient(authorizationServer, {
    metadata,
    clientMetadata: { client_name: 'Claude Code', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
  });
  const { authorizationUrl, codeVerifier } = await startAuthorization(authorizationServer, {
    metadata,
    clientInformation,
    redirectUrl: REDIRECT,
    scope,
    state: 'st-123',
    resource: new URL(resource.resource),
  });
  const waiting = await openInBrowser(authorizationUrl);
  return { authorizationServer, metadata, clientInformation, codeVerifier, waiting, authorizationUrl };
}

async function pendingCode(appName: string): Promise<{ code: string; toolsets: string[]; scopes: string[] }> {
  const requests = (await harness.admin('GET', '/admin/key-requests')).body.keyRequests;
  return requests.find((request: { appName: string }) => request.appName === appName);
}

describe('OAuth for /mcp: from registration to a token, approved by the GM', () => {
  it('discovers, registers, waits for the GM, and trades the code for a key that lists the granted toolsets', async () => {
    const flow = await signIn('play prepare delete');
    expect(flow.waiting.status).toBe(200);
    const page = await flow.waiting.text();
    const request = await pendingCode('Claude Code');
    expect(page).toContain(request.code);
    expect(request.toolsets).toEqual(['play', 'prepare', 'delete']);
    // The GM grants Play only, read only.
    const approval = await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {
      toolsets: ['play'],
      readOnly: true,
    });
    expect(approval.status, approval.text).toBe(200);
    const back = await fetch(new URL(flow.waiting.url), { redirect: 'manual' });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(harness.baseUrl);
    const tokens = await exchangeAuthorization(flow.authorizationServer, {
      metadata: flow.metadata,
      clientInformation: flow.clientInformation,
      authorizationCode: location.searchParams.get('code')!,
      codeVerifier: flow.codeVerifier,
      redirectUri: REDIRECT,
    });
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.access_token).toMatch(/^ttr_/);
    const client = await mcpClient(harness.baseUrl, tokens.access_token);
    const names = await toolNames(client);
    expect(names).toContain('rolls');
    expect(names).not.toContain('roll');
    expect(names).not.toContain('create');
    expect((await callTool(client, 'last_roll')).isError).toBe(false);
    await client.close();
    const key = (await harness.admin('GET', '/admin/keys')).body.keys.find(
      (listed: { id: string }) => listed.id === approval.body.keyId,
    );
    expect(key).toMatchObject({ name: 'Claude Code', assistant: { toolsets: ['play'], readOnly: true } });
    expect(key.scopes).not.toContain('roll:execute');
  });

  it('a code is good once, with its own PKCE verifier: a second use revokes the key', async () => {
    const flow = await signIn();
    const { code } = await pendingCode('Claude Code');
    await harness.admin('POST', `/admin/key-requests/${code}/approve`, {});
    const back = await fetch(new URL(flow.waiting.url), { redirect: 'manual' });
    const authorizationCode = new URL(back.headers.get('location')!).searchParams.get('code')!;
    const exchange = (codeVerifier: string) =>
      exchangeAuthorization(flow.authorizationServer, {
        metadata: flow.metadata,
        clientInformation: flow.clientInformation,
        authorizationCode,
        codeVerifier,
        redirectUri: REDIRECT,
      });
    const tokens = await exchange(flow.codeVerifier);
    await expect(exchange(flow.codeVerifier)).rejects.toThrow(/Unknown or used authorization code/);
    await expect(mcpClient(harness.baseUrl, tokens.access_token)).rejects.toThrow();
  });

  it('a denied sign-in returns access_denied to the assistant', async () => {
    const flow = await signIn();
    const { code } = await pendingCode('Claude Code');
    await harness.admin('POST', `/admin/key-requests/${code}/deny`, {});
    const back = await fetch(new URL(flow.waiting.url), { redirect: 'manual' });
    expect(new URL(back.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });

  it('registration refuses a redirect to a web site', async () => {
    const answer = await fetch(`${harness.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Evil', redirect_uris: ['https://evil.example/cb'] }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });
});
