import { expect } from 'vitest';
import type { WorldMessage } from '../../contracts/world-protocol.ts';
import {
  createSandboxWorld,
  type SandboxWorld,
  type SandboxWorldOptions,
  type WorldDocument,
} from '../../sandbox/index.ts';

export const NOW = 1_750_000_000_000;

export function sandbox(options: SandboxWorldOptions = {}): SandboxWorld {
  return createSandboxWorld({ seed: 42, now: () => NOW, ...options });
}

let counter = 0;

/** Sends one request and returns the reply (which the tests expect to exist). */
export async function ask(world: SandboxWorld, type: string, parameters: Record<string, unknown> = {}): Promise<any> {
  const requestId = `${type}_${++counter}`;
  const reply = await world.handle({ type, requestId, ...parameters });
  if (!reply) throw new Error(`no reply to ${type}`);
  expect(reply.type).toBe(`${type}-result`);
  expect(reply.requestId).toBe(requestId);
  return reply;
}

export function named(
  world: SandboxWorld,
  collection: 'actors' | 'users' | 'scenes' | 'playlists' | 'folders',
  name: string,
): WorldDocument {
  const document = world.game.collections[collection].getName(name);
  if (!document) throw new Error(`no ${collection} named ${name}`);
  return document;
}

export function tokenNamed(world: SandboxWorld, sceneName: string, tokenName: string): WorldDocument {
  const token = named(world, 'scenes', sceneName).collection('Token').getName(tokenName);
  if (!token) throw new Error(`no token ${tokenName}`);
  return token;
}

export function recordPushes(world: SandboxWorld): WorldMessage[] {
  const pushes: WorldMessage[] = [];
  world.onPush((message) => pushes.push(message));
  return pushes;
}
