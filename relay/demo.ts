import { connectSandbox, createSandboxWorld } from '../sandbox/index.ts';
import { SCOPES } from './auth/scopes.ts';
import type { Relay } from './relay.ts';

export const SANDBOX_CLIENT_ID = 'fvtt_sandbox0000000';

export interface DemoWorld {
  apiKey: string;
  worldTitle: string;
  stop(): Promise<void>;
}

/** Connects the sandbox world to a running relay as a paired world would, and makes a key for trying the API. */
export async function startDemoWorld(relay: Relay, seed: number): Promise<DemoWorld> {
  const { services } = relay;
  const world = createSandboxWorld({ seed });
  services.knownWorlds.remember({ clientId: SANDBOX_CLIENT_ID, ...world.metadata });
  const { token } = services.connectionTokens.issue(SANDBOX_CLIENT_ID, 'Sandbox world', 'demo');
  const link = await connectSandbox(world, { relayUrl: relay.url.replace(/^http/, 'ws'), clientId: SANDBOX_CLIENT_ID, token, reconnect: true });
  world.startAmbientActivity();
  const { key } = services.keys.create({ name: 'Demo key', scopes: SCOPES.filter((scope) => scope !== 'execute-js') });
  return {
    apiKey: key,
    worldTitle: world.metadata.worldTitle ?? 'Sandbox',
    stop: async () => {
      world.stopAmbientActivity();
      await link.close();
    },
  };
}
