import { z } from 'zod';
import { DEFAULT_TOOLSETS, isToolsetName, TOOLSET_NAMES } from '../../contracts/assistants.ts';
import { HttpError } from '../errors.ts';
import { escapeHtml } from '../http/html.ts';
import { framedPage, pageHeaders, PAGE_STYLE } from '../api/page-frame.ts';
import { refuseOtherPages } from '../routing/access.ts';
import { isLoopback } from '../gate/addresses.ts';
import type { CallContext } from '../routing/route.ts';
import { shownText, text } from '../routing/parameters.ts';
import { localRoute, type Answer, type Route } from '../routing/route.ts';
import { OAuthError, type AuthorizationOutcome } from './oauth.ts';
import { MCP_PATH, PROTECTED_RESOURCE_PATH } from './paths.ts';

// The MCP authorization flow (OAuth 2.1 with PKCE and dynamic client registration), with the relay as its own
// authorization server: what an MCP client finds after /mcp answers 401, and the endpoints it then calls.

const NO_STORE = { 'Cache-Control': 'no-store' };

function protectedResource(origin: string): Answer {
  return {
    body: {
      resource: `${origin}${MCP_PATH}`,
      authorization_servers: [origin],
      scopes_supported: TOOLSET_NAMES,
      bearer_methods_supported: ['header'],
      resource_name: 'Tabletop Relay',
    },
  };
}

const WAITING_SCRIPT = 'setTimeout(() => location.reload(), 3000);';

/** The page the GM's browser waits on while the GM decides in the settings; it looks again every 3 s. */
function waitingPage(outcome: AuthorizationOutcome): Answer {
  if (outcome.status === 'redirect') return { kind: 'redirect', location: outcome.location, headers: NO_STORE };
  const waiting = outcome.status === 'waiting';
  const card = waiting
    ? `<div class="state"><h1>Approve ${escapeHtml(outcome.appName)} in Tabletop Relay</h1>
<p>Open Tabletop Relay's settings (its tray menu: <strong>Open settings…</strong>, or <code>npm run settings</code>).
The request waits under <strong>AI assistants</strong>, where you pick what the assistant may do.</p>
<p>Its code: <code>${escapeHtml(outcome.code)}</code>. Approve only a request whose code reads the same.</p>
<p class="muted small">This page goes on by itself once you decided.</p></div>`
    : `<div class="state"><h1>This sign-in ended</h1>
<p>It waited too long, or it was used already. Connect the assistant again to start over.</p></div>`;
  const script = waiting ? WAITING_SCRIPT : '';
  return {
    kind: 'html',
    status: waiting ? 200 : 410,
    html: framedPage({
      title: 'Connect an AI assistant',
      style: PAGE_STYLE,
      script,
      state: outcome.status,
      cardClass: 'card',
      card,
      noReferrer: true,
    }),
    headers: pageHeaders(PAGE_STYLE, script),
  };
}

/**
 * Assistants sign in on this computer only: the sign-in ends in the browser that opened it, whose own loopback
 * address receives the code, so from another computer it would hand a key to whoever opened the page there. Another
 * computer's assistant takes a key the GM makes for it (AI assistants → Make a key).
 */
function refuseFromLan(call: CallContext): void {
  if (isLoopback(call.remoteAddress)) return;
  throw new HttpError(
    403,
    'AI assistants sign in on the computer that runs Tabletop Relay; for one on another computer, make a key in the settings (AI assistants) and give it to the assistant',
  );
}

function toolsetsOf(scope: string | undefined) {
  const names = (scope ?? '').split(' ').filter((name) => name !== '');
  if (names.length === 0) return [...DEFAULT_TOOLSETS];
  const unknown = names.filter((name) => !isToolsetName(name));
  if (unknown.length > 0)
    throw new HttpError(
      400,
      `Unknown scope ${unknown.join(', ')}: the scopes are toolsets, ${TOOLSET_NAMES.join(', ')}`,
    );
  return names.filter(isToolsetName);
}

export const oauthRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: PROTECTED_RESOURCE_PATH,
    summary: 'Where an MCP client signs in for /mcp (RFC 9728): the relay itself; the scopes are the toolsets',
    access: 'public',
    parameters: z.object({}),
    handle: ({ call }) => protectedResource(call.relayOrigin),
  }),
  localRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    summary: 'The same, for clients that look at the root',
    access: 'public',
    parameters: z.object({}),
    handle: ({ call }) => protectedResource(call.relayOrigin),
  }),
  localRoute({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    summary:
      "The relay's OAuth endpoints for AI assistants (RFC 8414): authorization code with PKCE, open registration",
    access: 'public',
    parameters: z.object({}),
    handle: ({ call }) => {
      const origin = call.relayOrigin;
      return {
        body: {
          issuer: origin,
          authorization_endpoint: `${origin}/oauth/authorize`,
          token_endpoint: `${origin}/oauth/token`,
          registration_endpoint: `${origin}/oauth/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          scopes_supported: TOOLSET_NAMES,
          authorization_response_iss_parameter_supported: true,
        },
      };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/oauth/register',
    summary:
      'An AI assistant registers itself (RFC 7591): its name, shown to the GM, and where it listens for the sign-in (loopback or its own scheme)',
    access: 'public',
    admit: (call, services) => {
      refuseFromLan(call);
      refuseOtherPages(call, services, 'Registrations');
    },
    from: 'body',
    parameters: z.object({
      client_name: shownText(100).default('AI assistant').describe('The assistant\'s name, e.g. "Claude Code"'),
      redirect_uris: z
        .array(text(), { error: 'must list URIs' })
        .min(1, { error: 'must list at least one URI' })
        .max(10, { error: 'lists at most 10 URIs' })
        .describe('Where the sign-in returns: http://127.0.0.1:<port>/…, http://localhost…, or an app scheme'),
    }),
    handle: ({ parameters, services }) => {
      try {
        const client = services.oauth.register(parameters.client_name, parameters.redirect_uris);
        return {
          status: 201,
          body: {
            client_id: client.clientId,
            client_id_issued_at: Math.floor(client.issuedAt / 1000),
            client_name: client.name,
            redirect_uris: client.redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          },
          headers: NO_STORE,
        };
      } catch (error) {
        if (error instanceof OAuthError)
          return { status: 400, body: { error: error.code, error_description: error.message } };
        throw error;
      }
    },
  }),
  localRoute({
    method: 'GET',
    path: '/oauth/authorize',
    summary:
      "An assistant's sign-in, opened in the GM's browser: files a key request the GM approves in the settings, then returns to the assistant with a code",
    access: 'public',
    admit: (call, services) => {
      refuseFromLan(call);
      services.keyRequests.admit(call.remoteAddress);
    },
    parameters: z.object({
      response_type: z.literal('code', { error: "must be 'code'" }).describe('code'),
      client_id: text().describe('From the registration'),
      redirect_uri: text().describe('One of the registered redirect URIs'),
      code_challenge: text().describe('The PKCE challenge: base64url(SHA-256(verifier))'),
      code_challenge_method: z.literal('S256', { error: "must be 'S256'" }).describe('S256'),
      state: z.string().optional().describe('Returned as it came'),
      scope: z.string().optional().describe('Toolsets, space-separated; Play and Prepare by default'),
      resource: z.string().optional().describe('The /mcp URL (RFC 8707)'),
    }),
    handle: ({ parameters, services, call }) => {
      const client = services.oauth.client(parameters.client_id, parameters.redirect_uri);
      const id = services.oauth.authorize(
        client,
        {
          redirectUri: parameters.redirect_uri,
          codeChallenge: parameters.code_challenge,
          state: parameters.state,
          toolsets: toolsetsOf(parameters.scope),
        },
        call.remoteAddress,
      );
      return { kind: 'redirect', status: 303, location: `/oauth/authorize/${id}`, headers: NO_STORE };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/oauth/authorize/{id}',
    summary: 'The page a sign-in waits on until the GM decided, which then returns to the assistant',
    access: 'public',
    produces: 'text/html',
    admit: refuseFromLan,
    parameters: z.object({ id: text().max(100) }),
    handle: ({ parameters, services, call }) => waitingPage(services.oauth.outcome(parameters.id, call.relayOrigin)),
  }),
  localRoute({
    method: 'POST',
    path: '/oauth/token',
    summary:
      'An assistant trades its one-time code and PKCE verifier for its access token: an ordinary API key, listed and revoked in the settings',
    access: 'public',
    admit: refuseFromLan,
    from: 'body',
    parameters: z.object({
      grant_type: text().describe('authorization_code'),
      code: text().max(200).describe('The code the sign-in returned with'),
      redirect_uri: text().describe('The redirect URI of the sign-in'),
      client_id: text().describe('From the registration'),
      code_verifier: text().max(200).describe('The PKCE verifier'),
    }),
    handle: ({ parameters, services }) => {
      if (parameters.grant_type !== 'authorization_code')
        return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Only authorization_code' } };
      try {
        const token = services.oauth.token({
          code: parameters.code,
          clientId: parameters.client_id,
          redirectUri: parameters.redirect_uri,
          codeVerifier: parameters.code_verifier,
        });
        return { body: token, headers: NO_STORE };
      } catch (error) {
        if (error instanceof OAuthError)
          return { status: 400, body: { error: error.code, error_description: error.message }, headers: NO_STORE };
        throw error;
      }
    },
  }),
];
