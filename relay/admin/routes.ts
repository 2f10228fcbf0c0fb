import { z } from 'zod';
import { withoutUndefined } from '../objects.ts';
import { DEFAULT_SCOPES, SCOPES } from '../auth/scopes.ts';
import { HttpError } from '../errors.ts';
import { flag, text, textList, wholeNumber } from '../routing/parameters.ts';
import { knownScopes } from '../auth/scope-list.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { pairRequestView, pairRequestViews, relayStatus } from './status.ts';
import { openAdminFeed } from './admin-feed.ts';
import { ADMIN_COOKIE, ADMIN_SESSION_LIFETIME_MS } from '../auth/admin-sessions.ts';
import { isLoopback } from '../gate/addresses.ts';
import { holdsAdminSession } from '../routing/access.ts';
import { adminLoginUrl, HOW_TO_GET_A_LOGIN_LINK, refuseLogin } from './login-page.ts';
import { revocationAnswer } from './revocation-answer.ts';
import type { ApiKeyView, NewApiKeyAnswer } from '../../contracts/admin-api.ts';

const keyFields = {
  name: text().max(100, { error: 'is at most 100 characters' }).describe('What the key is for, e.g. "Stream Deck"'),
  scopes: textList().pipe(knownScopes()).describe('Scopes the key grants; GET /admin/scopes lists them'),
  userId: z.string({ error: 'must be a string' }).max(200).optional().describe('Tabletop user the key always acts as'),
  worldIds: textList().optional().describe('Client ids of the only worlds the key may reach'),
  askBeforeChanges: flag()
    .optional()
    .describe("Each change the key asks of a world waits for the GM's approval in the settings"),
};

const limitSetting = wholeNumber({ min: 0, max: 1_000_000 });
/** A name a browser may address the relay by: a DNS name or IP address, without scheme or port; kept lower-case. */
const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/, {
    error: 'must be a host name without scheme or port, such as relay.lan',
  });

function notFound(what: string): never {
  throw new HttpError(404, `No ${what} with this id`);
}

const admin = 'admin' as const;
const none = z.object({});
const keyId = text().describe('The API key id');
const pairRequestCode = text().describe('The pair request code');

/** The settings UI session cookie: sent only to this relay, never to scripts, for as long as the session lasts. */
function sessionCookie(session: string): string {
  const expires = new Date(Date.now() + ADMIN_SESSION_LIFETIME_MS).toUTCString();
  return `${ADMIN_COOKIE}=${session}; Max-Age=${ADMIN_SESSION_LIFETIME_MS / 1000}; Path=/; Expires=${expires}; HttpOnly; SameSite=Strict`;
}

/** The admin API: what the tray UI and local scripts use to manage keys, pairing and worlds. Loopback and admin token only. */
export const adminRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/status',
    summary: 'Connected worlds, waiting pair requests and open streams',
    access: admin,
    parameters: none,
    handle: ({ services }) => ({ body: relayStatus(services) }),
  }),
  localRoute({
    method: 'GET',
    path: '/admin/settings',
    summary: 'Rate limit and event stream cap per key, LAN access and allowed web origins',
    access: admin,
    parameters: none,
    handle: ({ services }) => ({ body: services.settings.get() }),
  }),
  localRoute({
    method: 'PATCH',
    path: '/admin/settings',
    summary:
      'Change the settings; LAN access and the port take effect at once (an address another program holds is a 409 and changes nothing)',
    access: admin,
    parameters: z.object({
      requestsPerMinute: limitSetting.optional().describe('Requests per minute per API key; 0 is no limit'),
      streamsPerKey: limitSetting.optional().describe('Open event streams per API key; 0 is no cap'),
      lanAccess: flag().optional().describe('Answer on the LAN addresses of this computer too'),
      corsOrigins: textList()
        .pipe(
          z.array(
            z
              .string()
              .regex(/^(\*|https?:\/\/[^/\s]+)$/, { error: 'must be * or an origin such as http://localhost:30000' }),
          ),
        )
        .optional()
        .describe('Web page origins allowed to call the API; * for any'),
      allowedHosts: textList()
        .pipe(z.array(hostName))
        .optional()
        .describe('Host names the relay answers to besides its loopback and LAN addresses, e.g. relay.lan'),
      port: wholeNumber({ min: 1024, max: 65535 })
        .optional()
        .describe(
          "Port to listen on; the relay moves at once, and each world's module must then use the new relay URL",
        ),
      journalChanges: flag()
        .optional()
        .describe('Record every change tools make to a world, with what undoes it; off, writes go unrecorded'),
      journalMaxChanges: wholeNumber({ min: 1, max: 100_000 })
        .optional()
        .describe('The most changes the journal keeps; the oldest go first'),
      journalMaxDays: wholeNumber({ min: 1, max: 3650 }).optional().describe('Days a change stays in the journal'),
      confirmationTimeoutSeconds: wholeNumber({ min: 10, max: 3600 })
        .optional()
        .describe("Seconds a held change waits for the GM's approval before its caller is refused (408)"),
    }),
    handle: async ({ parameters, services }) => {
      const changes = withoutUndefined(parameters);
      let stored = services.settings.get();
      const store = () => {
        stored = services.settings.update(changes);
      };
      // The port and LAN access change where the relay listens: stored only once it listens there.
      if (changes.port === undefined && changes.lanAccess === undefined) store();
      else await services.network.moveTo({ port: changes.port, lanAccess: changes.lanAccess }, store);
      return { body: stored };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/admin/pause',
    summary: 'Stop answering API calls (503) while worlds stay connected',
    access: admin,
    parameters: none,
    handle: ({ services }) => {
      services.network.setPaused(true);
      return { body: { paused: true } };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/admin/resume',
    summary: 'Answer API calls again',
    access: admin,
    parameters: none,
    handle: ({ services }) => {
      services.network.setPaused(false);
      return { body: { paused: false } };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/admin/activity',
    summary: 'The most recent API calls: time, key name, endpoint, status, duration',
    access: admin,
    parameters: none,
    handle: ({ services }) => ({ body: { entries: services.activity.recent() } }),
  }),
  localRoute({
    method: 'GET',
    path: '/admin/events',
    summary:
      'Server-Sent Events: status when it changes, pair-requests once then each pair-request that changes, activity for each API call',
    access: admin,
    parameters: none,
    produces: 'text/event-stream',
    handle: ({ services }) => ({ kind: 'events', open: (stream) => openAdminFeed(services, stream) }),
  }),
  localRoute({
    method: 'GET',
    path: '/admin/login',
    summary: 'Trade a one-time login code for a settings UI session, then open the UI',
    access: 'public',
    parameters: z.object({ code: text().describe('The code from the one-time admin URL') }),
    handle: ({ parameters, call, services }) => {
      if (!isLoopback(call.remoteAddress)) {
        return refuseLogin(call, 403, 'Admin links work only in a browser on the computer running Tabletop Relay.');
      }
      const session = services.adminSessions.redeem(parameters.code);
      if (session)
        return {
          kind: 'redirect',
          status: 303,
          location: '/admin/',
          headers: { 'Set-Cookie': sessionCookie(session) },
        };
      // The link opened again in a browser that is signed in already: it goes on to the settings, as it did the first time.
      if (holdsAdminSession(call, services)) return { kind: 'redirect', status: 303, location: '/admin/' };
      return refuseLogin(call, 401, `This sign-in link was already used or has expired. ${HOW_TO_GET_A_LOGIN_LINK}`);
    },
  }),
  localRoute({
    method: 'POST',
    path: '/admin/login-links',
    summary:
      'A new one-time link that opens the settings UI in a browser on this computer (what npm run settings prints and opens)',
    access: admin,
    parameters: none,
    handle: ({ services }) => ({ status: 201, body: { url: adminLoginUrl(services) } }),
  }),
  localRoute({
    method: 'GET',
    path: '/admin/scopes',
    summary: 'The scopes a key can hold, and those a new key gets by default',
    access: admin,
    parameters: none,
    handle: () => ({ body: { scopes: SCOPES, defaultScopes: DEFAULT_SCOPES } }),
  }),
  localRoute({
    method: 'GET',
    path: '/admin/pair-requests',
    summary: 'Pair requests waiting for a decision',
    access: admin,
    parameters: none,
    handle: ({ services }) => ({ body: { pairRequests: pairRequestViews(services) } }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/pair-requests/{code}/approve',
    summary: 'Approve a pair request; the waiting module then receives its pairing code',
    access: admin,
    parameters: z.object({ code: pairRequestCode }),
    handle: ({ parameters, services }) => ({
      body: pairRequestView(services.pairing.approve(parameters.code), services),
    }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/pair-requests/{code}/deny',
    summary: 'Deny a pair request',
    access: admin,
    parameters: z.object({ code: pairRequestCode }),
    handle: ({ parameters, services }) => ({ body: pairRequestView(services.pairing.deny(parameters.code), services) }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/pairing-codes',
    summary:
      "Issue a 6-character code to type into the module's Enter Code box; with clientId it pairs only that world",
    access: admin,
    parameters: z.object({ clientId: text().optional().describe('Add a browser to this already paired world') }),
    handle: ({ parameters, services }) => {
      const code = services.pairing.issueCode({ clientId: parameters.clientId });
      return {
        status: 201,
        body: {
          code: code.code,
          expiresAt: new Date(code.expiresAt).toISOString(),
          expiresIn: Math.round((code.expiresAt - Date.now()) / 1000),
        },
      };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/admin/keys',
    summary: 'API keys (never the keys themselves)',
    access: admin,
    parameters: none,
    handle: ({ services }) => ({ body: { keys: services.keys.list() satisfies ApiKeyView[] } }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/keys',
    summary: 'Create an API key; the full key is in this answer only',
    access: admin,
    parameters: z.object({ ...keyFields, scopes: keyFields.scopes.default([...DEFAULT_SCOPES]) }),
    handle: ({ parameters, services }) => {
      const { key, record } = services.keys.create(parameters);
      const answer: NewApiKeyAnswer = { ...record, key };
      return { status: 201, body: answer };
    },
  }),
  localRoute({
    method: 'PATCH',
    path: '/admin/keys/{id}',
    summary: "Change a key's name, scopes or bindings, or whether its changes wait for the GM",
    access: admin,
    parameters: z.object({
      id: keyId,
      name: keyFields.name.optional(),
      scopes: keyFields.scopes.optional(),
      userId: keyFields.userId,
      worldIds: keyFields.worldIds,
      askBeforeChanges: keyFields.askBeforeChanges,
    }),
    handle: ({ parameters: { id, ...changes }, services }) => ({
      body: services.keys.update(id, changes) ?? notFound('API key'),
    }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/keys/{id}/rotate',
    summary: 'Replace a key with a new one; the old one stops working at once',
    access: admin,
    parameters: z.object({ id: keyId }),
    handle: ({ parameters, services }) => {
      const rotated = services.keys.rotate(parameters.id) ?? notFound('API key');
      const answer: NewApiKeyAnswer = { ...rotated.record, key: rotated.key };
      return { body: answer };
    },
  }),
  localRoute({
    method: 'DELETE',
    path: '/admin/keys/{id}',
    summary: 'Revoke a key',
    access: admin,
    parameters: z.object({ id: keyId }),
    handle: ({ parameters, services }) => {
      return revocationAnswer({ revoked: true }, services.keys.revoke(parameters.id) ?? notFound('API key'));
    },
  }),
  localRoute({
    method: 'GET',
    path: '/admin/connection-tokens',
    summary: 'The tokens worlds connect with (never the tokens themselves)',
    access: admin,
    parameters: none,
    handle: ({ services }) => ({ body: { connectionTokens: services.connectionTokens.list() } }),
  }),
  localRoute({
    method: 'DELETE',
    path: '/admin/connection-tokens/{id}',
    summary: 'Revoke a connection token and disconnect the world using it',
    access: admin,
    parameters: z.object({ id: text().describe('The connection token id') }),
    handle: ({ parameters, services }) => {
      const revoked = services.connectionTokens.revoke(parameters.id) ?? notFound('connection token');
      services.tabletop.disconnectToken(revoked.id, 'Connection token revoked');
      return revocationAnswer({ revoked: true }, revoked);
    },
  }),
];
