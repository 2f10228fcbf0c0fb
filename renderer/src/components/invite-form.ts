// The form that invites a player: which world, which player, how long the link works.
import { admin, type NewInvitation, type RelayStatus, type World } from '../admin-api.ts';
import { emptyState, h, replaceChildren, toast } from '../dom.ts';
import { roleName } from '../format.ts';

/** Foundry's ASSISTANT role: from it up a user is a GM, whom the relay never invites. */
const FIRST_GM_ROLE = 3;

/** What the GM may choose for how long an unused link works; a week unless they choose. */
const INVITATION_LIFETIMES: readonly (readonly [number, string])[] = [
  [1, '1 day'],
  [3, '3 days'],
  [7, '1 week'],
  [30, '30 days'],
];

function invitablePlayers(world: World | undefined) {
  return (world?.players ?? []).filter((player) => player.role < FIRST_GM_ROLE);
}

function worldName(world: { worldTitle?: string; clientId: string }): string {
  return world.worldTitle || world.clientId;
}

export function inviteForm(
  status: RelayStatus | undefined,
  onCreated: (invitation: NewInvitation) => void,
): HTMLElement {
  const worlds = status?.worlds ?? [];
  if (worlds.length === 0)
    return h(
      'section',
      { class: 'card', id: 'invite-form' },
      emptyState(
        'world',
        'No world is connected',
        'Start your world in Foundry: you invite a player from the users of a connected world.',
      ),
    );
  const worldSelect = h(
    'select',
    { class: 'input', id: 'invite-world', name: 'clientId' },
    ...worlds.map((world) => h('option', { value: world.clientId }, worldName(world))),
  );
  const playerSelect = h('select', { class: 'input', id: 'invite-player', name: 'userId', required: true });
  const name = h('input', {
    class: 'input',
    id: 'invite-name',
    name: 'name',
    maxlength: 100,
    autocomplete: 'off',
  });
  const lifetime = h(
    'select',
    { class: 'input', id: 'invite-lifetime', name: 'lifetimeDays' },
    ...INVITATION_LIFETIMES.map(([days, label]) => h('option', { value: days, selected: days === 7 }, label)),
  );
  const submit = h('button', { type: 'submit', class: 'button button-primary', id: 'create-invitation' }, 'Invite');
  const fillPlayers = () => {
    const players = invitablePlayers(worlds.find((world) => world.clientId === worldSelect.value));
    replaceChildren(
      playerSelect,
      ...players.map((player) => h('option', { value: player.id }, `${player.name} · ${roleName(player.role)}`)),
    );
    submit.disabled = players.length === 0;
    name.placeholder = players[0] ? `Invitation for ${players[0].name}` : '';
  };
  worldSelect.addEventListener('change', fillPlayers);
  playerSelect.addEventListener('change', () => {
    name.placeholder = `Invitation for ${playerSelect.selectedOptions[0]?.textContent?.split(' · ')[0] ?? ''}`;
  });
  fillPlayers();
  const form = h(
    'form',
    { class: 'card', id: 'invite-form', 'aria-labelledby': 'invite-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'invite-title' }, 'Invite a player'),
      h(
        'p',
        { class: 'muted' },
        "The player scans a QR code with their phone or tablet and plays from it: their character, their dice and the table's chat, as them in one world, with their permissions in Foundry. Revoke the device under Players' devices whenever you like.",
      ),
    ),
    h(
      'div',
      { class: 'field-grid' },
      h('div', { class: 'field' }, h('label', { for: 'invite-world' }, 'World'), worldSelect),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'invite-player' }, 'Player'),
        playerSelect,
        h('p', { class: 'hint' }, 'Users of the world who are not GMs.'),
      ),
    ),
    h(
      'div',
      { class: 'field-grid' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'invite-name' }, 'Device name'),
        name,
        h('p', { class: 'hint' }, 'Optional: how the device and its key are listed, e.g. "Alice\'s phone".'),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'invite-lifetime' }, 'Link works for'),
        lifetime,
        h('p', { class: 'hint' }, 'Unused by then, it stops working: make a new one.'),
      ),
    ),
    h('div', { class: 'form-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      onCreated(
        await admin.createInvitation({
          clientId: worldSelect.value,
          userId: playerSelect.value,
          lifetimeDays: Number(lifetime.value),
          ...(name.value.trim() ? { name: name.value.trim() } : {}),
        }),
      );
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
