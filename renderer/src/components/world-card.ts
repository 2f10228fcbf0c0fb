// A connected world: its title, system, GM and players, and how it connected.
import type { World } from '../admin-api.ts';
import { h, icon } from '../dom.ts';
import { durationSince, plural, roleName, systemLine } from '../format.ts';

function gameMaster(world: World): string {
  const gm =
    world.players.find((player) => player.role === 4 && player.active) ??
    world.players.find((player) => player.role === 4);
  return gm ? gm.name : 'No GM';
}

export function worldCard(world: World): HTMLElement {
  const online = world.players.filter((player) => player.active);
  return h(
    'article',
    { class: 'card world', 'data-client-id': world.clientId },
    h(
      'div',
      { class: 'world-head' },
      h('div', { class: 'world-badge', 'aria-hidden': 'true' }, icon('world')),
      h(
        'div',
        {},
        h('h3', { class: 'world-title' }, world.worldTitle || world.clientId),
        h('p', { class: 'muted' }, systemLine(world)),
      ),
      h('span', { class: 'pill pill-success' }, h('span', { class: 'dot' }), 'Connected'),
    ),
    h(
      'dl',
      { class: 'facts' },
      h('div', {}, h('dt', {}, 'Foundry'), h('dd', {}, world.foundryVersion ?? 'Unknown')),
      h('div', {}, h('dt', {}, 'Game master'), h('dd', {}, gameMaster(world))),
      h(
        'div',
        {},
        h('dt', {}, 'Connected for'),
        h('dd', { 'data-since': world.connectedSince }, durationSince(world.connectedSince)),
      ),
      h('div', {}, h('dt', {}, 'Client id'), h('dd', {}, h('code', {}, world.clientId))),
    ),
    h(
      'div',
      { class: 'players' },
      h('span', { class: 'muted small' }, `${plural(online.length, 'player')} online`),
      h(
        'ul',
        { class: 'avatars' },
        ...world.players.map((player) =>
          h(
            'li',
            {
              class: `avatar${player.active ? ' is-active' : ''}`,
              title: `${player.name} · ${roleName(player.role)}${player.active ? ' · online' : ''}`,
            },
            player.name.slice(0, 1).toUpperCase(),
            h(
              'span',
              { class: 'visually-hidden' },
              ` ${player.name}, ${roleName(player.role)}${player.active ? ', online' : ''}`,
            ),
          ),
        ),
      ),
    ),
  );
}
