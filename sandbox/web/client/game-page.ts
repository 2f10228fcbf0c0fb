// The game page's script: the sandbox world core and its protocol peer running in the browser. Like the module,
// it connects to the relay only in a full Gamemaster's browser holding a connection token in localStorage.
import { connectSandbox, type SandboxLink } from '../../link.ts';
import { createSandboxWorld, type SandboxWorldOptions } from '../../sandbox-world.ts';
import { FLAVOUR_VERSIONS } from '../flavour.ts';
import { FoundryClient, type ClientConfig } from './foundry-client.ts';

interface PageConfig extends ClientConfig {
  worldOptions: SandboxWorldOptions;
}

const TOKEN_KEY = 'foundry-rest-api.connectionToken';
const FULL_GM_ROLE = 4;

function readToken(): string | undefined {
  const stored = localStorage.getItem(TOKEN_KEY);
  if (!stored) return undefined;
  try {
    const token: unknown = JSON.parse(stored);
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}

async function connectModule(client: FoundryClient): Promise<SandboxLink | undefined> {
  const { config, world } = client;
  const user = world.game.users.get(config.userId);
  const token = readToken();
  if (Number(user?.source.role) < FULL_GM_ROLE || !config.moduleEnabled) return undefined;
  if (!token || !config.clientId || !config.relayUrl) return undefined;
  world.game.relaySettings.clientId = config.clientId;
  return connectSandbox(world, {
    relayUrl: config.relayUrl.replace(/^http/, 'ws'),
    clientId: config.clientId,
    token,
    reconnect: true,
  });
}

/**
 * Tells the server every second that this page is still in the game, as Foundry's socket does, with the client settings
 * that say how heavy the page is; `game.socket.connected` follows whether the server answers.
 */
function stayInTouch(game: {
  socket: { connected: boolean };
  settings: { get(namespace: string, key: string): unknown };
}) {
  const beat = async () => {
    const body = JSON.stringify({
      noCanvas: game.settings.get('core', 'noCanvas') === true,
      muted: ['globalPlaylistVolume', 'globalAmbientVolume', 'globalInterfaceVolume'].every(
        (key) => game.settings.get('core', key) === 0,
      ),
    });
    game.socket.connected = await fetch('/sandbox/alive', { method: 'POST', body, keepalive: true })
      .then((response) => response.ok)
      .catch(() => false);
  };
  void beat();
  setInterval(() => void beat(), 1000);
}

async function main(): Promise<void> {
  const config = JSON.parse(document.getElementById('sandbox-config')!.textContent!) as PageConfig;
  const foundryVersion = config.worldOptions.foundryVersion ?? FLAVOUR_VERSIONS[config.flavour];
  const world = createSandboxWorld({ ...config.worldOptions, foundryVersion });
  const client = new FoundryClient(world, config);
  const page = globalThis as unknown as Record<string, unknown>;
  client.install(page);
  const game = page.game as Parameters<typeof stayInTouch>[0] & { ready: boolean };
  game.ready = true;
  stayInTouch(game);
  const status = { connected: false, error: '' };
  page.sandboxModule = status;
  const link = await connectModule(client).catch((error: unknown) => {
    status.error = error instanceof Error ? error.message : String(error);
    return undefined;
  });
  status.connected = link !== undefined;
  addEventListener('pagehide', () => void link?.close());
}

void main();
