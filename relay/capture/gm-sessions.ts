// GM sessions (reference-relay-http-api.md §1.19, module-protocol.md §7.3): a full-GM user logged in to an offscreen
// page seeded with a connection token, so the module inside connects back to this relay and the world stays online
// without a GM browser tab.
import { constants, generateKeyPairSync, privateDecrypt, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { ConnectionTokens } from '../auth/connection-tokens.ts';
import type { KnownWorld, KnownWorlds } from '../auth/known-worlds.ts';
import type { Tabletop } from '../tabletop/tabletop.ts';
import type { BrowserPage } from './browser.ts';
import type { BrowserHost } from './browser-host.ts';
import { CaptureFailure, logIn, type FoundryAccount } from './foundry-login.ts';
import { connectModule, requireWorldHolder } from './gm-page.ts';
import type { GameFacts } from './page-scripts.ts';
import { originOf } from '../gate/request-gate.ts';
import { WHERE_TO_CONFIGURE, worldsAt } from './session-worlds.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import { consoleLog, type RelayLog } from '../log.ts';

const HANDSHAKE_LIFETIME_MS = 5 * 60_000;

export interface GmSessionDependencies {
  connectionTokens: Pick<ConnectionTokens, 'issue' | 'revoke'>;
  tabletop: Pick<Tabletop, 'world' | 'on'>;
  /** The paired worlds, with the Foundry address the GM gave each: the only pages a session may open. */
  knownWorlds: Pick<KnownWorlds, 'list'>;
  /** Says 'entry' for every API call: the sessions' activity clock (calls without a known key do not count). */
  activity: Pick<EventEmitter<{ entry: [{ keyName: string | null }] }>, 'on'>;
  /** Where a session that could not be restarted is noted; the console by default. */
  log?: RelayLog;
}

export interface Handshake {
  token: string;
  publicKey: string;
  nonce: string;
  instanceId: string;
  foundryUrl: string;
  username: string;
  expires: number;
}

interface PendingHandshake extends Handshake {
  privateKey: KeyObject;
  worldName: string | undefined;
}

export interface SessionView {
  sessionId: string;
  clientId: string;
  foundryUrl: string;
  worldId: string;
  worldName: string;
  worldTitle: string;
  foundryVersion: string;
  systemId: string;
  systemTitle: string;
  systemVersion: string;
  username: string;
  startedAt: string;
  lastActivity: string;
}

interface GmSession {
  sessionId: string;
  account: FoundryAccount;
  token: string;
  tokenId: string;
  facts: GameFacts;
  page: BrowserPage | undefined;
  startedAt: Date;
  lastActivity: Date;
  relaunching: Promise<void> | undefined;
}

export class GmSessions {
  readonly #host: BrowserHost;
  readonly #dependencies: GmSessionDependencies;
  readonly #idleTimeoutMs: number;
  readonly #captureUrl: () => string;
  readonly #instanceId = randomUUID();
  readonly #handshakes = new Map<string, PendingHandshake>();
  readonly #sessions = new Map<string, GmSession>();
  readonly #idleTimer: ReturnType<typeof setInterval> | undefined;

  /** `captureUrl` is the capture settings' Foundry URL ('' when none), the one address a session may open besides the worlds' own. */
  constructor(host: BrowserHost, dependencies: GmSessionDependencies, idleTimeoutMs: number, captureUrl: () => string) {
    this.#host = host;
    this.#dependencies = dependencies;
    this.#idleTimeoutMs = idleTimeoutMs;
    this.#captureUrl = captureUrl;
    dependencies.tabletop.on('world-connected', (world) => this.#endDisplaced(world));
    host.on('crash', () => {
      for (const session of this.#sessions.values()) this.#relaunch(session);
    });
    dependencies.activity.on('entry', ({ keyName }) => {
      if (keyName === null) return;
      const now = new Date();
      for (const session of this.#sessions.values()) session.lastActivity = now;
    });
    if (idleTimeoutMs > 0) {
      this.#idleTimer = setInterval(() => this.#endIdle(), Math.min(60_000, Math.max(1000, idleTimeoutMs / 4)));
      this.#idleTimer.unref();
    }
  }

  /** Refuses (403) a Foundry URL the GM did not configure, before any browser opens it. */
  handshake(foundryUrl: string, username: string, worldName: string | undefined): Handshake {
    this.#worldsAt(foundryUrl);
    this.#dropExpiredHandshakes();
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const handshake: PendingHandshake = {
      token: randomBytes(24).toString('hex'),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      nonce: randomBytes(16).toString('hex'),
      instanceId: this.#instanceId,
      foundryUrl,
      username,
      expires: Date.now() + HANDSHAKE_LIFETIME_MS,
      privateKey,
      worldName,
    };
    this.#handshakes.set(handshake.token, handshake);
    const { privateKey: _privateKey, worldName: _worldName, ...answer } = handshake;
    return answer;
  }

  /**
   * Both passwords come sealed under the handshake's public key with its nonce: the user's (`encryptedPassword`) and
   * Foundry's administrator password (`encryptedAdminPassword`), which opens the whole Foundry server.
   */
  async start(
    handshakeToken: string,
    encryptedPassword: string,
    worldName: string | undefined,
    encryptedAdminPassword?: string,
  ): Promise<{ success: true; sessionId: string; clientId: string }> {
    this.#dropExpiredHandshakes();
    const handshake = this.#handshakes.get(handshakeToken);
    if (!handshake)
      throw new CaptureFailure(401, 'Invalid or expired handshake token: call POST /session-handshake again');
    this.#handshakes.delete(handshakeToken);
    const password = unsealed(handshake, encryptedPassword, SEALED_PASSWORD);
    const adminPassword =
      encryptedAdminPassword === undefined
        ? undefined
        : unsealed(handshake, encryptedAdminPassword, SEALED_ADMIN_PASSWORD);
    const account = { foundryUrl: handshake.foundryUrl, username: handshake.username, password, adminPassword };
    const worlds = this.#worldsAt(account.foundryUrl);
    const page = await this.#host.openPage({ origin: originOf(account.foundryUrl) });
    try {
      const facts = await logIn(page, account);
      requireWorldHolder(facts, account, worlds, worldName ?? handshake.worldName);
      const { token, record } = this.#dependencies.connectionTokens.issue(
        facts.clientId,
        `GM session: ${account.username}`,
        'session',
        originOf(account.foundryUrl),
      );
      const session: GmSession = {
        sessionId: randomUUID(),
        account,
        token,
        tokenId: record.id,
        facts,
        page,
        startedAt: new Date(),
        lastActivity: new Date(),
        relaunching: undefined,
      };
      try {
        await this.#connect(session, page);
      } catch (error) {
        this.#dependencies.connectionTokens.revoke(record.id);
        throw error;
      }
      this.#sessions.set(session.sessionId, session);
      page.onCrash(() => this.#relaunch(session));
      return { success: true, sessionId: session.sessionId, clientId: facts.clientId };
    } catch (error) {
      await page.close();
      throw error;
    }
  }

  /** Ends a session: its page closes, so its world goes offline, and its connection token is revoked. */
  async end(sessionId: string): Promise<boolean> {
    const session = this.#sessions.get(sessionId);
    if (!session) return false;
    this.#sessions.delete(sessionId);
    this.#dependencies.connectionTokens.revoke(session.tokenId);
    await session.page?.close();
    session.page = undefined;
    return true;
  }

  list(): SessionView[] {
    return [...this.#sessions.values()].map((session) => ({
      sessionId: session.sessionId,
      clientId: session.facts.clientId,
      foundryUrl: session.account.foundryUrl,
      worldId: session.facts.worldId,
      worldName: session.facts.worldId,
      worldTitle: session.facts.worldTitle,
      foundryVersion: session.facts.version,
      systemId: session.facts.systemId,
      systemTitle: session.facts.systemTitle,
      systemVersion: session.facts.systemVersion,
      username: session.account.username,
      startedAt: session.startedAt.toISOString(),
      lastActivity: session.lastActivity.toISOString(),
    }));
  }

  async close(): Promise<void> {
    if (this.#idleTimer) clearInterval(this.#idleTimer);
    await Promise.all([...this.#sessions.keys()].map((sessionId) => this.end(sessionId)));
    this.#handshakes.clear();
  }

  /** The paired worlds a session at this address may bring online; a 403 when the GM configured the address nowhere. */
  #worldsAt(foundryUrl: string): KnownWorld[] {
    const worlds = worldsAt(foundryUrl, { knownWorlds: this.#dependencies.knownWorlds, captureUrl: this.#captureUrl });
    if (!worlds)
      throw new CaptureFailure(
        403,
        `GM sessions open only a Foundry address the GM configured, and ${foundryUrl} is none: ${WHERE_TO_CONFIGURE}`,
      );
    return worlds;
  }

  /** Seeds the token, reloads the game and waits until the module inside holds the world's /relay socket with it. */
  async #connect(session: GmSession, page: BrowserPage): Promise<void> {
    await connectModule(page, session.account.foundryUrl, session.token, {
      held: () => this.#holdsWorld(session),
      heldElsewhere: () => this.#dependencies.tabletop.world(session.facts.clientId)?.open === true,
    });
  }

  /** Whether the world's /relay socket is the socket that this session's token opened. */
  #holdsWorld(session: GmSession): boolean {
    const world = this.#dependencies.tabletop.world(session.facts.clientId);
    return world?.open === true && world.tokenId === session.tokenId;
  }

  /** A session whose world connects with any other credential than the session's token has lost its world: it ends. */
  #endDisplaced(world: WorldConnection): void {
    for (const session of this.#sessions.values()) {
      if (session.facts.clientId === world.clientId && world.tokenId !== session.tokenId)
        void this.end(session.sessionId);
    }
  }

  #relaunch(session: GmSession): void {
    if (session.relaunching || !this.#sessions.has(session.sessionId)) return;
    session.page = undefined;
    session.relaunching = (async () => {
      const page = await this.#host.openPage({ origin: originOf(session.account.foundryUrl) });
      try {
        await logIn(page, session.account);
        await this.#connect(session, page);
      } catch (error) {
        await page.close();
        throw error;
      }
      if (!this.#sessions.has(session.sessionId)) {
        await page.close();
        return;
      }
      session.page = page;
      page.onCrash(() => this.#relaunch(session));
    })()
      .catch((error: unknown) =>
        (this.#dependencies.log ?? consoleLog).error(
          `GM session ${session.sessionId} could not be restarted: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        session.relaunching = undefined;
      });
  }

  #endIdle(): void {
    const cutoff = Date.now() - this.#idleTimeoutMs;
    for (const session of this.#sessions.values()) {
      if (session.lastActivity.getTime() < cutoff) void this.end(session.sessionId);
    }
  }

  #dropExpiredHandshakes(): void {
    const now = Date.now();
    for (const [token, handshake] of this.#handshakes) if (handshake.expires < now) this.#handshakes.delete(token);
  }
}

/** A password sealed for a handshake: the parameter that carries it and the field of its JSON that holds it. */
interface SealedField {
  parameter: 'encryptedPassword' | 'encryptedAdminPassword';
  field: 'password' | 'adminPassword';
}

const SEALED_PASSWORD: SealedField = { parameter: 'encryptedPassword', field: 'password' };
const SEALED_ADMIN_PASSWORD: SealedField = { parameter: 'encryptedAdminPassword', field: 'adminPassword' };

/** Opens base64 RSA-OAEP (SHA-256) of JSON {<field>, nonce} under the handshake's public key. */
function unsealed(handshake: PendingHandshake, sealed: string, { parameter, field }: SealedField): string {
  let payload: Record<string, unknown>;
  try {
    const plain = privateDecrypt(
      { key: handshake.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(sealed, 'base64'),
    );
    payload = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new CaptureFailure(
      400,
      `'${parameter}' could not be decrypted: it must be base64 RSA-OAEP (SHA-256) of JSON {${field}, nonce} under the handshake's public key`,
    );
  }
  if (payload.nonce !== handshake.nonce) throw new CaptureFailure(401, 'The nonce does not match the handshake');
  const value = payload[field];
  if (typeof value !== 'string') throw new CaptureFailure(400, `'${parameter}' must hold a ${field} string`);
  return value;
}
