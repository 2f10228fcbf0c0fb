// The sandbox's browsable web client: a small Foundry-like server on loopback with a login page (`/join`) and a game
// page whose script runs the sandbox world in the browser. Capture tests and the demo log in to it like to Foundry.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { encodePng } from '../images/png.ts';
import { Raster, type Colour } from '../images/raster.ts';
import { createSandboxWorld, type SandboxWorldOptions } from '../sandbox-world.ts';
import { gamePageBundle } from './bundle.ts';
import { FLAVOUR_VERSIONS, type Flavour } from './flavour.ts';
import { adminPage, gamePage, loginPage } from './pages.ts';
import { WEB_FOLDER } from './web-folder.ts';

const STYLESHEET = readFileSync(join(WEB_FOLDER, 'public', 'sandbox-sheet.css'), 'utf8');
const SESSION_COOKIE = 'sandbox-session';
const PORTRAIT_SIZE = 96;

/**
 * The options of the world each game page runs: only what survives JSON (no clock, no file store). Its Foundry version
 * is the flavour's unless given (a 14 world runs with the v13 flavour's client).
 */
export type WebWorldOptions = Pick<
  SandboxWorldOptions,
  'seed' | 'system' | 'worldId' | 'worldTitle' | 'settings' | 'foundryVersion' | 'emptyEncounters'
>;

export interface SandboxWebClientOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  worldOptions?: WebWorldOptions;
  flavour?: Flavour;
  /** Passwords by user name; users not listed have an empty password. */
  passwords?: Record<string, string>;
  /** The world setting `foundry-rest-api.clientId`, as if the world had been paired with this id. */
  clientId?: string;
  /** The relay the module inside the page connects to. */
  relayUrl?: string;
  /**
   * Foundry's administrator password, for a world that is not launched yet: every page then leads to the administrator
   * page (`/auth`, as Foundry 14 shows it), and the right password there launches the world.
   */
  adminPassword?: string;
  /** Whether the foundry-rest-api module is enabled in the world; true by default. */
  moduleEnabled?: boolean;
  /** The world runs the 2.x module with this API key (its world setting `foundry-rest-api.apiKey`) instead of 3.x. */
  legacyApiKey?: string;
}

/** A user whose game page is open, as the server hears from it every second (Foundry's active users). */
export interface PresentUser {
  userName: string;
  /** The page runs without its game canvas (Foundry's client setting `core.noCanvas`). */
  noCanvas: boolean;
  /** Every volume of the page is at zero. */
  muted: boolean;
}

/** How long after its last word a game page still counts as present. */
const PRESENCE_MS = 3000;

export interface SandboxWebClient {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly flavour: Flavour;
  setRelayUrl(relayUrl: string): void;
  /** The users whose game pages are open now. */
  presentUsers(): PresentUser[];
  /** How many logins were posted to /join, accepted or not. */
  readonly loginAttempts: number;
  close(): Promise<void>;
}

function tintOf(text: string): Colour {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return [60 + (hash % 160), 60 + ((hash >> 8) % 160), 60 + ((hash >> 16) % 160)];
}

async function portrait(path: string): Promise<Uint8Array> {
  const tint = tintOf(path);
  const raster = new Raster(PORTRAIT_SIZE, PORTRAIT_SIZE, tint);
  raster.fillGradient(0, PORTRAIT_SIZE / 2, PORTRAIT_SIZE, PORTRAIT_SIZE / 2, tint, [
    tint[0] / 3,
    tint[1] / 3,
    tint[2] / 3,
  ]);
  raster.fillRect(PORTRAIT_SIZE * 0.3, PORTRAIT_SIZE * 0.2, PORTRAIT_SIZE * 0.4, PORTRAIT_SIZE * 0.4, [240, 220, 190]);
  return encodePng(raster);
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export async function startSandboxWebClient(options: SandboxWebClientOptions = {}): Promise<SandboxWebClient> {
  const flavour = options.flavour ?? 'v13';
  const worldOptions: WebWorldOptions = { seed: 42, ...options.worldOptions };
  const roster = createSandboxWorld({
    ...worldOptions,
    foundryVersion: worldOptions.foundryVersion ?? FLAVOUR_VERSIONS[flavour],
  });
  const users = roster.game.users.contents.map((user) => ({ id: user.id, name: user.name }));
  const sessions = new Map<string, string>();
  const presence = new Map<string, PresentUser & { at: number }>();
  const portraits = new Map<string, Promise<Uint8Array>>();
  let relayUrl = options.relayUrl ?? '';
  let launched = options.adminPassword === undefined;
  const script = await gamePageBundle();

  const send = (
    response: ServerResponse,
    status: number,
    type: string,
    body: string | Uint8Array,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers }).end(body);
  };
  const redirect = (response: ServerResponse, location: string) =>
    response.writeHead(302, { Location: location }).end();

  let loginAttempts = 0;
  const join = async (request: IncomingMessage, response: ServerResponse) => {
    loginAttempts += 1;
    const body = await readJson(request);
    const user = users.find((candidate) => candidate.id === body.userid);
    if (!user)
      return send(
        response,
        401,
        'application/json',
        JSON.stringify({ status: 'failed', error: 'Choose a user to join as' }),
      );
    const expected = options.passwords?.[user.name] ?? '';
    if (String(body.password ?? '') !== expected) {
      return send(
        response,
        401,
        'application/json',
        JSON.stringify({ status: 'failed', error: `Incorrect password for ${user.name}` }),
      );
    }
    const session = randomBytes(16).toString('hex');
    sessions.set(session, user.id);
    send(
      response,
      200,
      'application/json',
      JSON.stringify({ status: 'success', message: `Joining as ${user.name}`, redirect: '/game' }),
      {
        'Set-Cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict`,
      },
    );
  };

  const adminAuth = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readJson(request);
    if (String(body.adminPassword ?? '') !== options.adminPassword) {
      const error = 'The provided administrator password is invalid.';
      return send(response, 401, 'application/json', JSON.stringify({ status: 'failed', error }));
    }
    launched = true;
    send(response, 200, 'application/json', JSON.stringify({ status: 'success', redirect: '/join' }));
  };

  const game = (request: IncomingMessage, response: ServerResponse) => {
    const userId = sessions.get(cookieOf(request, SESSION_COOKIE) ?? '');
    if (!userId) return redirect(response, '/join');
    const moduleEnabled = options.moduleEnabled ?? true;
    const { legacyApiKey } = options;
    const config = {
      flavour,
      userId,
      clientId: options.clientId ?? '',
      relayUrl,
      moduleEnabled,
      legacyApiKey,
      worldOptions,
    };
    send(response, 200, 'text/html; charset=utf-8', gamePage(config, flavour, roster.game.system.id));
  };

  const alive = async (request: IncomingMessage, response: ServerResponse) => {
    const session = cookieOf(request, SESSION_COOKIE) ?? '';
    const user = users.find((candidate) => candidate.id === sessions.get(session));
    if (!user) return send(response, 401, 'text/plain', 'Not in the game');
    const body = await readJson(request);
    presence.set(session, {
      userName: user.name,
      noCanvas: body.noCanvas === true,
      muted: body.muted === true,
      at: Date.now(),
    });
    send(response, 204, 'text/plain', '');
  };

  const image = async (path: string, response: ServerResponse) => {
    if (!portraits.has(path)) portraits.set(path, portrait(path));
    send(response, 200, 'image/png', await portraits.get(path)!, { 'Cache-Control': 'max-age=3600' });
  };

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://sandbox.invalid').pathname;
    const answer = async () => {
      if (path === '/auth' && request.method === 'POST') return adminAuth(request, response);
      if (path === '/auth') return send(response, 200, 'text/html; charset=utf-8', adminPage());
      if (!launched && ['/', '/join', '/game'].includes(path)) return redirect(response, '/auth');
      if (path === '/')
        return redirect(response, sessions.has(cookieOf(request, SESSION_COOKIE) ?? '') ? '/game' : '/join');
      if (path === '/join' && request.method === 'POST') return join(request, response);
      if (path === '/join')
        return send(response, 200, 'text/html; charset=utf-8', loginPage(roster.game.world.title, users));
      if (path === '/game') return game(request, response);
      if (path === '/sandbox/alive' && request.method === 'POST') return alive(request, response);
      if (path === '/sandbox/game.js') return send(response, 200, 'text/javascript; charset=utf-8', script);
      if (path === '/css/sandbox-sheet.css') return send(response, 200, 'text/css; charset=utf-8', STYLESHEET);
      if (/\.(webp|png|jpe?g|svg)$/.test(path)) return image(path, response);
      send(response, 404, 'text/plain', 'Not found');
    };
    answer().catch(() => {
      if (!response.headersSent) send(response, 500, 'text/plain', 'The sandbox web client failed');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    flavour,
    setRelayUrl: (next) => {
      relayUrl = next;
    },
    get loginAttempts() {
      return loginAttempts;
    },
    presentUsers: () =>
      [...presence.values()].filter((user) => user.at > Date.now() - PRESENCE_MS).map(({ at: _at, ...user }) => user),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
