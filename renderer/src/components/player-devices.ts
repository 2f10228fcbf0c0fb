// The Players page's list of each player's devices: the keys their invitations made, with when each was last used.
import type { ApiKey, RelayStatus } from '../admin-api.ts';
import { h } from '../dom.ts';
import { relativeTime, shortDate } from '../format.ts';

/** The player's name as a connected world lists them, else what the key is bound to. */
function playerName(key: ApiKey, status: RelayStatus | undefined): string {
  const players = status?.worlds.flatMap((world) => world.players) ?? [];
  return players.find((player) => player.id === key.userId)?.name ?? key.userId ?? 'A player';
}

function worldOfKey(key: ApiKey, status: RelayStatus | undefined): string {
  const clientId = key.worldIds?.[0];
  const world = status?.worlds.find((candidate) => candidate.clientId === clientId);
  return world?.worldTitle || (clientId ?? '');
}

/**
 * Each player's devices: the keys their invitations made, with when each was last used. Revoking one signs that device
 * out at once; the player page on it says so.
 */
export function devicesCard(
  devices: ApiKey[],
  status: RelayStatus | undefined,
  revoke: (device: ApiKey, player: string) => void,
): HTMLElement {
  if (devices.length === 0) return h('div', {});
  const rows = devices
    .map((device) => ({ device, player: playerName(device, status) }))
    .sort(
      (a, b) =>
        a.player.localeCompare(b.player) || (b.device.lastUsedAt ?? '').localeCompare(a.device.lastUsedAt ?? ''),
    );
  return h(
    'section',
    { class: 'card card-flush', 'aria-labelledby': 'devices-title', id: 'devices' },
    h('h2', { class: 'card-flush-title', id: 'devices-title' }, "Players' devices"),
    h(
      'table',
      { class: 'table', 'aria-labelledby': 'devices-title' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col' }, 'World'),
          h('th', { scope: 'col' }, 'Last used'),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.map(({ device, player }) => {
          const button = h(
            'button',
            {
              type: 'button',
              class: 'button button-danger-outline button-small',
              'aria-label': `Revoke ${player}'s device "${device.name}"`,
            },
            'Revoke',
          );
          button.addEventListener('click', () => revoke(device, player));
          return h(
            'tr',
            { 'data-device-id': device.id },
            h('td', {}, h('strong', {}, player), h('span', { class: 'muted small block' }, device.name)),
            h('td', {}, worldOfKey(device, status)),
            h(
              'td',
              { class: 'nowrap', title: device.lastUsedAt ? shortDate(device.lastUsedAt) : undefined },
              relativeTime(device.lastUsedAt),
            ),
            h('td', { class: 'actions' }, button),
          );
        }),
      ),
    ),
  );
}
