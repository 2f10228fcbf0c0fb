// World and user resolution (relay/routing/world-resolution.ts): which world a call goes to and which user it acts as,
// for every key binding, with the reference relay's refusals byte for byte (module-protocol.md §5.4).
import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../relay/auth/api-keys.ts';
import { HttpError } from '../../relay/errors.ts';
import { resolveUserId, resolveWorld } from '../../relay/routing/world-resolution.ts';
import { fakeTabletop, fakeWorld } from './fake-worlds.ts';

const ONE = 'fvtt_one';
const TWO = 'fvtt_two';
const THREE = 'fvtt_three';

function key(binding: Pick<ApiKeyRecord, 'worldIds' | 'userId'> = {}): ApiKeyRecord {
  return { id: 'key', name: 'Deck', hash: 'hash', prefix: 'ttr_deck', scopes: [], createdAt: '', ...binding };
}

function connected(...clientIds: string[]) {
  return fakeTabletop(clientIds.map((clientId) => fakeWorld(clientId)));
}

/** The world a call reaches, or the refusal's status and body. */
function reached(clientIds: string[], clientId: string | undefined, apiKey?: ApiKeyRecord): unknown {
  try {
    return resolveWorld(connected(...clientIds), clientId, apiKey).clientId;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.status, body: error.toBody() };
  }
}

describe('world resolution: a call that names its world', () => {
  it('goes to the world it names, among others', () => {
    expect(reached([ONE, TWO], TWO)).toBe(TWO);
  });

  it('is a 404 "Invalid client ID" when that world is not connected', () => {
    expect(reached([ONE], TWO)).toEqual({ status: 404, body: { error: 'Invalid client ID' } });
  });

  it("is a 403 when the key is bound to other worlds, connected or not, before the world's own 404", () => {
    const forbidden = { status: 403, body: { error: 'API key is not authorized for this client' } };
    expect(reached([ONE, TWO], TWO, key({ worldIds: [ONE] }))).toEqual(forbidden);
    expect(reached([ONE], TWO, key({ worldIds: [ONE] }))).toEqual(forbidden);
    expect(reached([ONE, TWO], TWO, key({ worldIds: [ONE, TWO] }))).toBe(TWO);
  });
});

describe('world resolution: a call that names no world', () => {
  it('goes to the only world connected', () => {
    expect(reached([ONE], undefined)).toBe(ONE);
  });

  it('is a 404 when no world is connected', () => {
    expect(reached([], undefined)).toEqual({ status: 404, body: { error: 'No connected Foundry clients found' } });
  });

  it('is a 400 listing the connected worlds when there are several', () => {
    expect(reached([ONE, TWO], undefined)).toEqual({
      status: 400,
      body: { error: 'Multiple clients connected. Please specify clientId.', connectedClients: [ONE, TWO] },
    });
  });

  it("goes to the key's one world among several connected", () => {
    expect(reached([ONE, TWO, THREE], undefined, key({ worldIds: [TWO] }))).toBe(TWO);
  });

  it("lists only the key's own worlds when it is bound to several connected ones", () => {
    expect(reached([ONE, TWO, THREE], undefined, key({ worldIds: [THREE, ONE] }))).toEqual({
      status: 400,
      body: { error: 'Multiple clients connected. Please specify clientId.', connectedClients: [ONE, THREE] },
    });
  });

  it("is a 404 when none of the key's worlds is connected, though others are", () => {
    expect(reached([ONE, TWO], undefined, key({ worldIds: [THREE] }))).toEqual({
      status: 404,
      body: { error: 'No connected Foundry clients found' },
    });
  });
});

describe('user resolution', () => {
  it('acts as the user the caller names, or as nobody in particular, with a key bound to no user', () => {
    expect(resolveUserId('Bob', key())).toEqual({ userId: 'Bob' });
    expect(resolveUserId(undefined, key())).toEqual({ userId: undefined });
    expect(resolveUserId('Bob', undefined)).toEqual({ userId: 'Bob' });
  });

  it('acts as the bound user when the caller names nobody, or that user in any case', () => {
    expect(resolveUserId(undefined, key({ userId: 'Alice' }))).toEqual({ userId: 'Alice' });
    expect(resolveUserId('alice', key({ userId: 'Alice' }))).toEqual({ userId: 'Alice' });
  });

  it('acts as the bound user when the caller names another, and says whom it asked for', () => {
    expect(resolveUserId('Bob', key({ userId: 'Alice' }))).toEqual({ userId: 'Alice', asked: 'Bob' });
  });
});
