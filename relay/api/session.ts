import type { Request } from 'express';
import { z } from 'zod';
import type { CaptureService } from '../capture/capture-service.ts';
import { CaptureFailure } from '../capture/foundry-login.ts';
import { ChromeNotFoundError } from '../capture/puppeteer-browser.ts';
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import { text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';

const access = { scope: 'session:manage' } as const;

function captureOf(services: RelayServices): CaptureService {
  if (!services.capture) {
    throw new HttpError(503, 'Headless sessions are disabled', { message: 'This relay runs without browser capture, so it cannot start GM sessions' });
  }
  return services.capture;
}

function header(request: Request, name: string, required: boolean): string | undefined {
  const value = request.get(name)?.trim();
  if (required && !value) throw new HttpError(400, `The ${name} header is required`);
  return value || undefined;
}

/** Turns capture failures into the HTTP errors the reference relay answers with. */
async function asHttp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CaptureFailure) {
      const details = error.status === 408 ? { message: 'The session was stopped; check that the world has been paired with this relay' } : undefined;
      throw new HttpError(error.status, error.message, details);
    }
    if (error instanceof ChromeNotFoundError) throw new HttpError(503, 'Headless sessions are unavailable', { message: error.message });
    throw error;
  }
}

/** GM sessions (reference-relay-http-api.md §1.19): keep a world online from an offscreen browser page. */
export const sessionRoutes: Route[] = [
  localRoute({
    method: 'POST',
    path: '/session-handshake',
    summary: 'Start a GM session login: an RSA public key, a nonce and a handshake token valid 5 minutes (headers x-foundry-url, x-username, x-world-name); x-foundry-url must be a Foundry address the GM configured',
    access,
    parameters: z.object({}),
    handle: async ({ request, services }) => {
      const foundryUrl = header(request, 'x-foundry-url', true)!;
      if (!/^https?:\/\/\S+$/.test(foundryUrl)) throw new HttpError(400, 'The x-foundry-url header must be an http(s) URL');
      const sessions = captureOf(services).sessions;
      const handshake = await asHttp(async () => sessions.handshake(foundryUrl, header(request, 'x-username', true)!, header(request, 'x-world-name', false)));
      return { body: handshake };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/start-session',
    summary: 'Log a full GM user in to an offscreen page so the world connects to this relay without a GM browser tab',
    access,
    from: 'body',
    parameters: z.object({
      handshakeToken: text().describe('The token from POST /session-handshake'),
      encryptedPassword: text().describe('base64 of RSA-OAEP (SHA-256) of JSON {password, nonce} under the handshake public key'),
      worldName: text().optional().describe('The world expected to be running (id or title)'),
    }),
    handle: async ({ parameters, services }) => ({
      body: await asHttp(() => captureOf(services).sessions.start(parameters.handshakeToken, parameters.encryptedPassword, parameters.worldName)),
    }),
  }),
  localRoute({
    method: 'DELETE',
    path: '/end-session',
    summary: "End a GM session: its page closes and the world goes offline",
    access,
    from: 'body+query',
    parameters: z.object({ sessionId: text().describe('The session to end') }),
    handle: async ({ parameters, services }) => {
      if (!(await captureOf(services).sessions.end(parameters.sessionId))) throw new HttpError(404, 'Session not found');
      return { body: { status: 'ok', message: 'Session ended' } };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/session',
    summary: 'The GM sessions this relay runs',
    access,
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { activeSessions: services.capture?.sessions.list() ?? [] } }),
  }),
];
