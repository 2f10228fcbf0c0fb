// The game page's script: the sandbox world core and its protocol peer running in the browser. Like the module,
// it connects to the relay only in a full Gamemaster's browser holding a connection token in localStorage.
import {
  connectSandbox,
  connectSandboxLegacy,
  RelayConnectionError,
  relaySocketUrl,
  type SandboxLink,
} from '../../link.ts';
import { createSandboxWorld, type SandboxWorldOptions } from '../../sandbox-world.ts';
import { FLAVOUR_VERSIONS } from '../flavour.ts';
import { notifyError, openConnectionDialog } from './connection-dialog.ts';
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

/** The module's answer to a refused token: an error notification, this browser's token cleared, the Connection dialog. */
function forgetToken(relayUrl: string, code: number, reason: string): void {
  localStorage.setItem(TOKEN_KEY, JSON.stringify(''));
  notifyError(`The relay refused this browser's connection (${code}${reason ? `: ${reason}` : ''}). Pair again.`);
  openConnectionDialog(relayUrl);
}

async function connectModule(client: FoundryClient): Promise<SandboxLink | undefined> {
  const { config, world } = client;
  const user = world.game.users.get(config.userId);
  if (Number(user?.source.role) < FULL_GM_ROLE || !config.moduleEnabled || !config.relayUrl) return undefined;
  const relayUrl = relaySocketUrl(config.relayUrl.replace(/^http/, 'ws'));
  // A 2.x module: the API key of its world settings in the URL, connecting as foundry-<the GM's user id>.
  if (config.legacyApiKey) return connectSandboxLegacy(world, { relayUrl, apiKey: config.legacyApiKey });
  const token = readToken();
  if (!token || !config.clientId) return undefined;
  return connectSandbox(world, {
    relayUrl,
    clientId: config.clientId,
    token,
    reconnect: true,
    onTokenRefused: (code, reason) => forgetToken(relayUrl, code, reason),
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
  const status = { connected: false, error: '', closeCode: 0 };
  page.sandboxModule = status;
  const link = await connectModule(client).catch((error: unknown) => {
    status.error = error instanceof Error ? error.message : String(error);
    if (error instanceof RelayConnectionError) status.closeCode = error.code;
    return undefined;
  });
  status.connected = link !== undefined;
  void link?.closed.then(({ code }) => {
    status.connected = false;
    status.closeCode = code;
  });
  addEventListener('pagehide', () => void link?.close());
}

void main();
