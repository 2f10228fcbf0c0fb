// A paired world, a GM's browser that comes and goes (the sandbox world over the real protocol with the GM's own
// connection token), and the sandbox web client as the world's Foundry, where the keeper logs in in real Chromium.
import { expect } from 'vitest';
import { connectSandbox, createSandboxWorld, type SandboxLink } from '../../sandbox/index.ts';
import {
  startSandboxWebClient,
  type SandboxWebClient,
  type SandboxWebClientOptions,
} from '../../sandbox/web/server.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import type { RelayOptions } from '../../relay/relay.ts';
import type { KnownWorldView } from '../../contracts/admin-api.ts';
import type { KeeperView } from '../../contracts/keeper.ts';

export const CLIENT_ID = 'fvtt_keptworld00001';
export const KEEPER_USER = 'Gamemaster';
export const KEEPER_PASSWORD = 'keeper-secret';
const SEED = 7;

export interface KeeperHarness {
  relay: TestRelay;
  web: SandboxWebClient;
  key: string;
  /** The GM opens Foundry: their browser's module connects with its own token. */
  gmJoins(): Promise<SandboxLink>;
  /** The GM closes the Foundry tab. */
  gmLeaves(): Promise<void>;
  keeper(): Promise<KeeperView>;
  /** Waits until the keeper is in `phase`; the time it took, in ms. */
  untilPhase(phase: KeeperView['phase'], timeoutMs: number): Promise<number>;
  /** Whether an API call reaches the world and is answered. */
  answers(): Promise<boolean>;
  /** The connection token the world's link was opened with, by its source (pairing, keeper, ...). */
  linkSource(): string | undefined;
  keeperTokens(): number;
  close(): Promise<void>;
}

export async function startKeeperHarness(
  options: { relay?: Partial<RelayOptions>; web?: Partial<SandboxWebClientOptions>; paired?: boolean } = {},
): Promise<KeeperHarness> {
  const relay = await startTestRelay(options.relay);
  const web = await startSandboxWebClient({
    flavour: 'v13',
    worldOptions: { seed: SEED },
    passwords: { [KEEPER_USER]: KEEPER_PASSWORD, Alice: 'alice-secret' },
    clientId: CLIENT_ID,
    relayUrl: relay.baseUrl,
    ...options.web,
  });
  const { services } = relay.relay;
  services.knownWorlds.remember({ clientId: CLIENT_ID, worldId: 'sandbox-world', worldTitle: 'The Sandbox Keep' });
  const { token: gmToken } = services.connectionTokens.issue(CLIENT_ID, "The GM's browser", 'pairing');
  const key = await relay.createKey();
  const configured = await relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { foundryUrl: web.url });
  if (configured.status !== 200) throw new Error(`Foundry address refused: ${configured.text}`);
  let gm: SandboxLink | undefined;
  const harness: KeeperHarness = {
    relay,
    web,
    key,
    async gmJoins() {
      gm = await connectSandbox(createSandboxWorld({ seed: SEED }), {
        relayUrl: relay.wsUrl,
        clientId: CLIENT_ID,
        token: gmToken,
      });
      return gm;
    },
    async gmLeaves() {
      await gm?.close();
      gm = undefined;
    },
    async keeper() {
      const worlds = await relay.admin<{ worlds: KnownWorldView[] }>('GET', '/admin/worlds');
      return worlds.body.worlds.find((world) => world.clientId === CLIENT_ID)!.keeper!;
    },
    async untilPhase(phase, timeoutMs) {
      const started = performance.now();
      await expect.poll(async () => (await harness.keeper()).phase, { timeout: timeoutMs, interval: 100 }).toBe(phase);
      return performance.now() - started;
    },
    async answers() {
      const answer = await relay.api(key, 'GET', '/structure', { query: { clientId: CLIENT_ID } });
      return answer.status === 200;
    },
    linkSource() {
      const { tabletop, connectionTokens } = relay.relay.services;
      const tokenId = tabletop.world(CLIENT_ID)?.tokenId;
      return connectionTokens.list().find((token) => token.id === tokenId)?.source;
    },
    keeperTokens: () =>
      relay.relay.services.connectionTokens.list().filter((token) => token.source === 'keeper').length,
    async close() {
      await gm?.close();
      await relay.close();
      await web.close();
    },
  };
  return harness;
}

export async function keepOnline(harness: KeeperHarness, change: Record<string, unknown> = {}) {
  return harness.relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, {
    keepOnline: true,
    keeperUsername: KEEPER_USER,
    keeperPassword: KEEPER_PASSWORD,
    ...change,
  });
}
