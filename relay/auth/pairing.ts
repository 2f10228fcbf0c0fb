import { EventEmitter } from 'node:events';
import { randomCode } from './secrets.ts';
import type { ConnectionTokens } from './connection-tokens.ts';
import type { KnownWorlds } from './known-worlds.ts';
import { HttpError } from '../http/errors.ts';

const REQUEST_LIFETIME_MS = 10 * 60_000;
const APPROVED_CODE_LIFETIME_MS = 5 * 60_000;
const ISSUED_CODE_LIFETIME_MS = 10 * 60_000;

export type PairRequestStatus = 'pending' | 'approved' | 'denied' | 'exchanged' | 'expired';

/** What a world says about itself when it asks to pair (module-protocol.md §3.3). */
export interface PairingWorld {
  worldId: string;
  worldTitle?: string;
  systemId?: string;
  systemTitle?: string;
  systemVersion?: string;
  foundryVersion?: string;
  serverFingerprint?: string;
  clientId?: string;
}

export interface PairRequest {
  code: string;
  status: PairRequestStatus;
  world: PairingWorld;
  upgradeOnly: boolean;
  createdAt: number;
  expiresAt: number;
  pairingCode?: string;
}

interface PairingCode {
  code: string;
  expiresAt: number;
  clientId?: string;
  used: boolean;
}

export interface PairingExchange {
  code: string;
  worldId?: string;
  worldTitle?: string;
  serverFingerprint?: string;
  existingClientId?: string;
  serverOrigin?: string;
  userAgent?: string;
}

/**
 * Pair requests (the module's "Pair" button) and pairing codes (its "Enter Code" box). The GM approves requests and
 * issues codes through the admin API; the world exchanges a code for its connection token.
 * Emits 'changed' whenever a request appears or changes, so the tray can show it.
 */
export class Pairing extends EventEmitter {
  private readonly requests = new Map<string, PairRequest>();
  private readonly codes = new Map<string, PairingCode>();
  private readonly tokens: ConnectionTokens;
  private readonly worlds: KnownWorlds;

  constructor(tokens: ConnectionTokens, worlds: KnownWorlds) {
    super();
    this.tokens = tokens;
    this.worlds = worlds;
  }

  request(world: PairingWorld, upgradeOnly: boolean, now = Date.now()): PairRequest {
    this.forgetExpired(now);
    const request: PairRequest = {
      code: this.unusedCode(8, this.requests),
      status: 'pending',
      world,
      upgradeOnly,
      createdAt: now,
      expiresAt: now + REQUEST_LIFETIME_MS,
    };
    this.requests.set(request.code, request);
    this.emit('changed', request);
    return request;
  }

  /** The request as the polling module sees it; an approved code is handed out once, then the request counts as exchanged. */
  poll(code: string, now = Date.now()): PairRequest {
    const request = this.requestOf(code, now);
    const seen = { ...request };
    if (request.status === 'approved') request.status = 'exchanged';
    return seen;
  }

  pending(now = Date.now()): PairRequest[] {
    return [...this.requests.values()].filter((request) => this.refreshed(request, now).status === 'pending');
  }

  approve(code: string, now = Date.now()): PairRequest {
    const request = this.decidable(code, now);
    request.status = 'approved';
    if (!request.upgradeOnly) {
      request.pairingCode = this.issueCode({ clientId: request.world.clientId }, now, APPROVED_CODE_LIFETIME_MS).code;
    }
    this.emit('changed', request);
    return request;
  }

  deny(code: string, now = Date.now()): PairRequest {
    const request = this.decidable(code, now);
    request.status = 'denied';
    this.emit('changed', request);
    return request;
  }

  issueCode(options: { clientId?: string }, now = Date.now(), lifetimeMs = ISSUED_CODE_LIFETIME_MS): PairingCode {
    this.forgetExpired(now);
    const code: PairingCode = {
      code: this.unusedCode(6, this.codes),
      expiresAt: now + lifetimeMs,
      used: false,
      ...(options.clientId ? { clientId: options.clientId } : {}),
    };
    this.codes.set(code.code, code);
    return code;
  }

  /** Trades a pairing code for a connection token and the world's client id (module-protocol.md §3.4 step 2). */
  exchange(input: PairingExchange, now = Date.now()): { token: string; clientId: string } {
    const code = this.codes.get(input.code.trim().toUpperCase());
    if (!code) throw new HttpError(404, 'Invalid pairing code');
    if (code.used) throw new HttpError(410, 'This pairing code has already been used');
    if (code.expiresAt <= now) throw new HttpError(410, 'This pairing code has expired; generate a new one');
    if (!code.clientId && !input.worldId) throw new HttpError(400, 'worldId is required');
    code.used = true;
    const clientId = code.clientId ?? this.worlds.clientIdFor(input);
    this.worlds.remember({
      clientId,
      worldId: input.worldId,
      worldTitle: input.worldTitle,
      serverFingerprint: input.serverFingerprint,
    });
    const name = input.userAgent ? `Browser (${input.userAgent.slice(0, 80)})` : 'Browser';
    const { token } = this.tokens.issue(clientId, name, 'pairing');
    return { token, clientId };
  }

  private decidable(code: string, now: number): PairRequest {
    const request = this.requestOf(code, now);
    if (request.status !== 'pending') {
      throw new HttpError(409, `This pairing request is already ${request.status}`);
    }
    return request;
  }

  private requestOf(code: string, now: number): PairRequest {
    const request = this.requests.get(code.trim().toUpperCase());
    if (!request) throw new HttpError(404, 'Unknown pairing request; start pairing again from the module');
    return this.refreshed(request, now);
  }

  private refreshed(request: PairRequest, now: number): PairRequest {
    if (request.expiresAt <= now && (request.status === 'pending' || request.status === 'approved')) {
      request.status = 'expired';
    }
    return request;
  }

  private forgetExpired(now: number): void {
    for (const [code, request] of this.requests) {
      if (request.expiresAt + REQUEST_LIFETIME_MS <= now) this.requests.delete(code);
    }
    for (const [code, pairingCode] of this.codes) {
      if (pairingCode.expiresAt + ISSUED_CODE_LIFETIME_MS <= now) this.codes.delete(code);
    }
  }

  private unusedCode(length: number, taken: Map<string, unknown>): string {
    let code = randomCode(length);
    while (taken.has(code)) code = randomCode(length);
    return code;
  }
}
