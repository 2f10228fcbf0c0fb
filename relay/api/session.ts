import { z } from 'zod';
import type { CaptureService } from '../capture/capture-service.ts';
import { captureHttpError } from '../capture/capture-errors.ts';
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import { text } from '../routing/parameters.ts';
import type { PlayerDecision } from '../routing/route.ts';
import { localRoute, type Route } from '../routing/route.ts';

const access = { scope: 'session:manage' } as const;
/** Not a world's data: the relay's own browser pages, each logged in with a full GM's Foundry password. */
const GM_SESSIONS: PlayerDecision = {
  passes: "the relay's own GM sessions, not a world's data; starting one takes a full GM's Foundry password",
};

/** It opens the whole Foundry server, so it never crosses the network in clear, as the user's password never does. */
const CLEAR_ADMIN_PASSWORD =
  'is not taken in clear: seal it as encryptedAdminPassword, base64 of RSA-OAEP (SHA-256) of JSON {adminPassword, nonce} under the handshake public key, as encryptedPassword is';

function captureOf(services: RelayServices): CaptureService {
  if (!services.capture) {
    throw new HttpError(503, 'Headless sessions are disabled', {
      message: 'This relay runs without browser capture, so it cannot start GM sessions',
    });
  }
  return services.capture;
}

/** Runs capture work, its failures turned into the HTTP errors the reference relay answers with. */
async function asHttp<T>(work: () => Promise<T>, failedWork: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw captureHttpError(error, failedWork);
  }
}

/** GM sessions (reference-relay-http-api.md §1.19): keep a world online from an offscreen browser page. */
export const sessionRoutes: Route[] = [
  localRoute({
    method: 'POST',
    path: '/session-handshake',
    operation: 'session-handshake',
    summary: 'Start a GM session login: an RSA public key, a nonce and a handshake token valid 5 minutes',
    access,
    playerView: GM_SESSIONS,
    parameters: z.object({}),
    headers: z.object({
      'x-foundry-url': text()
        .regex(/^https?:\/\/\S+$/, { error: 'must be an http(s) URL' })
        .describe('The Foundry server to log in to; it must be a Foundry address the GM configured'),
      'x-username': text().describe('The Foundry user to log in as: a full Gamemaster'),
      'x-world-name': text().optional().describe('The world expected to be running (id or title)'),
    }),
    handle: async ({ headers, services }) => {
      const sessions = captureOf(services).sessions;
      const starting = async () =>
        sessions.handshake(headers['x-foundry-url'], headers['x-username'], headers['x-world-name']);
      return { body: await asHttp(starting, 'The GM session handshake') };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/start-session',
    operation: 'start-session',
    summary: 'Log a full GM user in to an offscreen page so the world connects to this relay without a GM browser tab',
    access,
    playerView: GM_SESSIONS,
    from: 'body',
    parameters: z.object({
      handshakeToken: text().describe('The token from POST /session-handshake'),
      encryptedPassword: text().describe(
        'base64 of RSA-OAEP (SHA-256) of JSON {password, nonce} under the handshake public key',
      ),
      worldName: text().optional().describe('The world expected to be running (id or title)'),
      encryptedAdminPassword: text()
        .optional()
        .describe(
          "Foundry's administrator password, for the page Foundry shows while no world is launched, sealed as the password is: base64 of RSA-OAEP (SHA-256) of JSON {adminPassword, nonce} under the handshake public key",
        ),
      foundryAdminPassword: text()
        .optional()
        .refine((clear) => clear === undefined, { error: CLEAR_ADMIN_PASSWORD })
        .describe('Refused: the administrator password travels sealed only, as encryptedAdminPassword'),
    }),
    handle: async ({ parameters, services }) => ({
      body: await asHttp(
        () =>
          captureOf(services).sessions.start(
            parameters.handshakeToken,
            parameters.encryptedPassword,
            parameters.worldName,
            parameters.encryptedAdminPassword,
          ),
        'Starting the GM session',
      ),
    }),
  }),
  localRoute({
    method: 'DELETE',
    path: '/end-session',
    operation: 'end-session',
    summary: 'End a GM session: its page closes and the world goes offline',
    access,
    playerView: GM_SESSIONS,
    from: 'body+query',
    parameters: z.object({ sessionId: text().describe('The session to end') }),
    handle: async ({ parameters, services }) => {
      if (!(await captureOf(services).sessions.end(parameters.sessionId)))
        throw new HttpError(404, 'Session not found');
      return { body: { status: 'ok', message: 'Session ended' } };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/session',
    operation: 'get-sessions',
    summary: 'The GM sessions this relay runs',
    access,
    playerView: GM_SESSIONS,
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { activeSessions: services.capture?.sessions.list() ?? [] } }),
  }),
];
