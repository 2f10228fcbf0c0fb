import { worldSocketUrl } from '../contracts/world-protocol.ts';
import { keepingText, type WorldKeeping } from '../contracts/keeper.ts';
import { updateText } from './updates/update-policy.ts';
import type { RelaySnapshot, TrayStatus, TrayWorld } from './tray-status.ts';

/** Things the tray menu can do; main/tray.ts maps each to its handler. */
export type TrayAction =
  | 'copy-local-url'
  | 'copy-lan-url'
  | 'open-settings'
  | 'pause-relay'
  | 'resume-relay'
  | 'toggle-start-at-login'
  | 'open-logs-folder'
  | 'keep-port'
  | 'restart-to-update'
  | 'toggle-update-checks'
  | 'quit';

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'status'; label: string }
  | { type: 'action'; label: string; action: TrayAction; enabled?: boolean }
  | { type: 'checkbox'; label: string; action: TrayAction; checked: boolean }
  /** Switches a paired world's keeper on or off. */
  | { type: 'keep-online'; label: string; clientId: string; checked: boolean };

const SEPARATOR: TrayMenuItem = { type: 'separator' };
const MAX_KEY_REQUESTS_LISTED = 3;

/** "2 h 5 min", "12 min", "less than a minute". */
export function durationSince(since: string, now: Date): string {
  const minutes = Math.floor((now.getTime() - Date.parse(since)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return `${days} d ${hours % 24} h`;
}

/** A tool names itself (up to 100 characters): menus and notifications show the start of a long name. */
export function shortened(name: string, max = 40): string {
  return name.length <= max ? name : `${name.slice(0, max - 1).trimEnd()}…`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function systemLine(world: TrayWorld): string {
  const system = world.systemTitle || world.systemId || 'Unknown system';
  return world.systemVersion ? `${system} ${world.systemVersion}` : system;
}

function keepingOf(relay: RelaySnapshot, clientId: string): WorldKeeping | undefined {
  return relay.keeping?.find((world) => world.clientId === clientId);
}

/** How the world is online: through the GM's browser, or through the keeper that holds it. */
function connectedLine(world: TrayWorld, keeping: WorldKeeping | undefined, now: Date): string {
  const since = durationSince(world.connectedSince, now);
  return keeping?.keeper.phase === 'kept' ? `Online through the keeper for ${since}` : `Connected for ${since}`;
}

function worldLines(world: TrayWorld, relay: RelaySnapshot, now: Date): TrayMenuItem[] {
  return [
    { type: 'status', label: world.worldTitle || world.clientId },
    { type: 'status', label: `    ${systemLine(world)}` },
    { type: 'status', label: `    ${connectedLine(world, keepingOf(relay, world.clientId), now)}` },
  ];
}

/** The kept worlds that are not online: each with why, and when the keeper tries again. */
function offlineKeptLines(relay: RelaySnapshot, now: Date): TrayMenuItem[] {
  return (relay.keeping ?? [])
    .filter((world) => !world.connected && world.keeper.enabled)
    .flatMap((world): TrayMenuItem[] => [
      { type: 'status', label: world.worldTitle || world.clientId },
      { type: 'status', label: `    ${keepingText(world.keeper, false, now)}` },
    ]);
}

/** A "Keep online" switch for every paired world, for the tray to flip without opening the settings. */
function keepOnlineItems(status: TrayStatus): TrayMenuItem[] {
  const keeping = status.error ? [] : (status.relay?.keeping ?? []);
  if (keeping.length === 0) return [];
  return [
    ...keeping.map((world): TrayMenuItem => ({
      type: 'keep-online',
      label: `Keep ${shortened(world.worldTitle || world.clientId)} online`,
      clientId: world.clientId,
      checked: world.keeper.enabled,
    })),
    SEPARATOR,
  ];
}

/**
 * "1 key request waiting", "2 pairing requests waiting", "1 change waiting", "3 requests waiting"; undefined when none
 * waits.
 */
export function waitingText(relay: RelaySnapshot): string | undefined {
  const kinds: [count: number, one: string, many: string][] = [
    [relay.pairRequests.length, 'pairing request', 'pairing requests'],
    [relay.keyRequests.length, 'key request', 'key requests'],
    [relay.confirmations.length, 'change', 'changes'],
  ];
  const waiting = kinds.filter(([count]) => count > 0);
  if (waiting.length === 0) return undefined;
  if (waiting.length === 1) return `${plural(...waiting[0]!)} waiting`;
  return `${plural(
    waiting.reduce((total, [count]) => total + count, 0),
    'request',
    'requests',
  )} waiting`;
}

function relayText(status: TrayStatus): string {
  const { relay } = status;
  if (status.error) return `Tabletop Relay: ${status.error}`;
  if (!relay) return 'Tabletop Relay is starting…';
  if (relay.portFallback) return `Tabletop Relay on port ${relay.port}: port ${relay.portFallback.wanted} was in use`;
  if (relay.paused) return 'Tabletop Relay is paused';
  const [first, ...others] = relay.worlds;
  if (!first) return 'Tabletop Relay: no world connected';
  if (others.length === 0) {
    const kept = relay.keeping?.some((world) => world.clientId === first.clientId && world.keeper.phase === 'kept');
    return `Tabletop Relay: ${first.worldTitle || first.clientId} ${kept ? 'kept online' : 'connected'}`;
  }
  return `Tabletop Relay: ${relay.worlds.length} worlds connected`;
}

/** The one-line summary: the tray's tooltip (with the requests waiting for the GM) and the menu's first line. */
export function statusText(status: TrayStatus): string {
  const waiting = status.relay && !status.error ? waitingText(status.relay) : undefined;
  return waiting ? `${relayText(status)} · ${waiting}` : relayText(status);
}

/** The tools waiting for a key, by name and the code they show, so the GM can tell which is which. */
function keyRequestLines(relay: RelaySnapshot): TrayMenuItem[] {
  const { keyRequests } = relay;
  if (keyRequests.length === 0) return [];
  const shown = keyRequests.slice(0, MAX_KEY_REQUESTS_LISTED);
  const lines: TrayMenuItem[] = [
    { type: 'status', label: `${plural(keyRequests.length, 'key request', 'key requests')} waiting` },
    ...shown.map((request): TrayMenuItem => ({
      type: 'status',
      label: `    ${shortened(request.appName)} · ${request.code}`,
    })),
  ];
  if (keyRequests.length > shown.length)
    lines.push({ type: 'status', label: `    and ${keyRequests.length - shown.length} more` });
  return lines;
}

function statusLines(status: TrayStatus): TrayMenuItem[] {
  const { relay } = status;
  if (!relay || status.error) return [{ type: 'status', label: relayText(status) }];
  const lines: TrayMenuItem[] = [];
  if (relay.portFallback) {
    lines.push(
      { type: 'status', label: `Port ${relay.portFallback.wanted} was in use: listening on ${relay.port}` },
      { type: 'status', label: `Set the module's relay URL to ${worldSocketUrl(relay.url)}` },
    );
  }
  if (relay.paused) lines.push({ type: 'status', label: 'Paused: API calls are refused' });
  if (relay.worlds.length === 0) lines.push({ type: 'status', label: 'No world connected' });
  for (const world of relay.worlds) lines.push(...worldLines(world, relay, status.now));
  lines.push(...offlineKeptLines(relay, status.now));
  if (relay.pairRequests.length > 0) {
    lines.push({
      type: 'status',
      label: `${plural(relay.pairRequests.length, 'pairing request', 'pairing requests')} waiting`,
    });
  }
  lines.push(...keyRequestLines(relay));
  lines.push(
    { type: 'status', label: `${plural(relay.callsLastMinute, 'API call', 'API calls')} in the last minute` },
    { type: 'status', label: `${plural(relay.eventStreams, 'event stream', 'event streams')} open` },
  );
  return lines;
}

function urlItems(status: TrayStatus): TrayMenuItem[] {
  const { relay } = status;
  const items: TrayMenuItem[] = [
    { type: 'action', label: 'Copy local URL', action: 'copy-local-url', enabled: relay !== undefined },
  ];
  if (relay?.lan.enabled) {
    items.push({ type: 'action', label: 'Copy LAN URL', action: 'copy-lan-url', enabled: relay.lan.urls.length > 0 });
  }
  if (relay?.portFallback) items.push({ type: 'action', label: `Keep port ${relay.port}`, action: 'keep-port' });
  return items;
}

function pauseItem(status: TrayStatus): TrayMenuItem {
  if (status.relay?.paused) return { type: 'action', label: 'Resume relay', action: 'resume-relay' };
  return {
    type: 'action',
    label: 'Pause relay',
    action: 'pause-relay',
    enabled: status.relay !== undefined && !status.error,
  };
}

/** What the updater is doing, and "Restart to update" once an update is ready. */
function updateItems(status: TrayStatus): TrayMenuItem[] {
  const text = updateText(status.update);
  const items: TrayMenuItem[] = text ? [{ type: 'status', label: text }] : [];
  if (status.update.phase === 'ready')
    items.push({ type: 'action', label: 'Restart to update', action: 'restart-to-update' });
  return items;
}

/**
 * The tray's context menu for a status. It always has items, whatever the state: Linux shows no tray icon at all
 * for an icon without a menu.
 */
export function menuFor(status: TrayStatus): TrayMenuItem[] {
  return [
    ...statusLines(status),
    SEPARATOR,
    ...urlItems(status),
    { type: 'action', label: 'Open settings…', action: 'open-settings', enabled: status.relay !== undefined },
    SEPARATOR,
    ...keepOnlineItems(status),
    pauseItem(status),
    { type: 'checkbox', label: 'Start at login', action: 'toggle-start-at-login', checked: status.startAtLogin },
    { type: 'checkbox', label: 'Check for updates', action: 'toggle-update-checks', checked: status.checkForUpdates },
    ...updateItems(status),
    { type: 'action', label: 'Open logs folder', action: 'open-logs-folder' },
    SEPARATOR,
    { type: 'action', label: 'Quit Tabletop Relay', action: 'quit' },
  ];
}

/** Whether two menus show the same thing: the tray builds a new native menu only when not, however often the status refreshes. */
export function sameMenu(shown: readonly TrayMenuItem[] | undefined, next: readonly TrayMenuItem[]): boolean {
  return shown !== undefined && JSON.stringify(shown) === JSON.stringify(next);
}
