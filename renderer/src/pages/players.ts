import qrcode from 'qrcode-generator';
import { admin, type ApiKey, type Invitation, type NewInvitation, type RelayStatus, type World } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { confirmDialog, copyButton, emptyState, h, icon, replaceChildren, toast, toastRevoked } from '../dom.ts';
import { relativeTime, roleName, shortDate, timeUntil } from '../format.ts';

/** Foundry's ASSISTANT role: from it up a user is a GM, whom the relay never invites. */
const FIRST_GM_ROLE = 3;
/** The QR code's width in CSS pixels, drawn at twice that for sharp screens. */
const QR_SIZE = 216;
/** Modules of white around the code, as scanners expect. */
const QUIET_ZONE = 4;
/** How often the shown invitation is checked, to say when the player has opened it. */
const USED_CHECK_MS = 2000;
/** How often the devices' last use is looked at again while the page is open. */
const DEVICES_CHECK_MS = 15_000;
/** What the GM may choose for how long an unused link works; a week unless they choose. */
const INVITATION_LIFETIMES: readonly (readonly [number, string])[] = [
  [1, '1 day'],
  [3, '3 days'],
  [7, '1 week'],
  [30, '30 days'],
];

/** Draws `text` as a QR code: black modules on white, whatever the page's colour scheme. */
function drawQrCode(canvas: HTMLCanvasElement, text: string): void {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const modules = code.getModuleCount();
  const cell = Math.max(1, Math.floor((QR_SIZE * 2) / (modules + QUIET_ZONE * 2)));
  const size = cell * (modules + QUIET_ZONE * 2);
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  context.fillStyle = '#000000';
  for (let row = 0; row < modules; row += 1)
    for (let column = 0; column < modules; column += 1)
      if (code.isDark(row, column))
        context.fillRect((column + QUIET_ZONE) * cell, (row + QUIET_ZONE) * cell, cell, cell);
}

function invitablePlayers(world: World | undefined) {
  return (world?.players ?? []).filter((player) => player.role < FIRST_GM_ROLE);
}

function worldName(world: { worldTitle?: string; clientId: string }): string {
  return world.worldTitle || world.clientId;
}

/** The banner and button that turn LAN access on: without it no phone reaches the relay. */
function lanBanner(): HTMLElement {
  const turnOn = h(
    'button',
    { type: 'button', class: 'button button-primary button-small', id: 'turn-on-lan' },
    'Turn on LAN access',
  );
  turnOn.addEventListener('click', async () => {
    turnOn.disabled = true;
    try {
      await admin.updateSettings({ lanAccess: true });
      toast('LAN access on: devices on your network can reach the relay');
    } catch (error) {
      toast((error as Error).message, 'error');
      turnOn.disabled = false;
    }
  });
  return h(
    'div',
    { class: 'banner banner-warning', role: 'note', id: 'lan-off' },
    icon('warning'),
    h(
      'div',
      { class: 'banner-body' },
      h(
        'span',
        {},
        h('strong', {}, "Players' phones cannot reach this relay while LAN access is off. "),
        'An invitation made now opens only on this computer.',
      ),
      turnOn,
    ),
  );
}

function inviteForm(status: RelayStatus | undefined, onCreated: (invitation: NewInvitation) => void): HTMLElement {
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

/** The link on the address the GM picked: the secret stays in the fragment whatever the address. */
function linkOn(invitation: NewInvitation, base: string): string {
  return `${base}${new URL(invitation.url).pathname}${new URL(invitation.url).hash}`;
}

/** The new invitation: its QR code, its link with Copy, and whether the player has opened it yet. */
function invitationCard(invitation: NewInvitation, status: RelayStatus | undefined, onDone: () => void) {
  const bases = status?.lan.enabled && status.lan.urls.length > 0 ? status.lan.urls : [new URL(invitation.url).origin];
  let link = linkOn(invitation, bases[0]!);
  const canvas = h('canvas', {
    class: 'qr-code',
    id: 'invitation-qr',
    role: 'img',
    'aria-label': `QR code of the invitation link for ${invitation.userName}`,
  });
  const field = h('input', { class: 'input input-mono', readonly: true, id: 'invitation-link' });
  const show = (base: string) => {
    link = linkOn(invitation, base);
    field.value = link;
    drawQrCode(canvas, link);
  };
  show(bases[0]!);
  const addressChoice =
    bases.length > 1
      ? h(
          'div',
          { class: 'field' },
          h('label', { for: 'invitation-address' }, 'Address'),
          (() => {
            const select = h(
              'select',
              { class: 'input', id: 'invitation-address' },
              ...bases.map((base) => h('option', { value: base }, base.replace(/^https?:\/\//, ''))),
            );
            select.addEventListener('change', () => show(select.value));
            return select;
          })(),
          h(
            'p',
            { class: 'hint' },
            'This computer has several network addresses: pick the one on the players’ network.',
          ),
        )
      : null;
  const state = h(
    'span',
    { class: 'pill pill-waiting', id: 'invitation-state' },
    h('span', { class: 'dot dot-warning' }),
    `Waiting for ${invitation.userName} to open it`,
  );
  const done = h('button', { type: 'button', class: 'button button-secondary' }, 'Done');
  done.addEventListener('click', onDone);
  const element = h(
    'section',
    { class: 'card invitation', id: 'invitation', 'aria-labelledby': 'invitation-title' },
    h('div', { class: 'qr-frame' }, canvas),
    h(
      'div',
      { class: 'invitation-body' },
      h('h2', { id: 'invitation-title' }, `Invitation for ${invitation.userName}`),
      h(
        'p',
        { class: 'muted' },
        `Scan it with ${invitation.userName}'s phone or tablet, or send them the link. It works once: the first device that opens it gets a key that acts as ${invitation.userName} in ${invitation.worldTitle ?? invitation.clientId}.`,
      ),
      state,
      addressChoice,
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'invitation-link' }, 'Invitation link'),
        h(
          'div',
          { class: 'reveal-row' },
          field,
          copyButton(() => link, 'Copy link'),
        ),
        h('p', { class: 'hint' }, 'Shown only now: the relay keeps a hash of it. Send it only to this player.'),
      ),
      h('div', { class: 'form-actions form-actions-start' }, done),
    ),
  );
  const markUsed = () => {
    state.className = 'pill pill-success';
    replaceChildren(
      state,
      h('span', { class: 'dot dot-success' }),
      `Opened: ${invitation.userName}'s device "${invitation.name}" is under Players' devices`,
    );
  };
  return { element, markUsed };
}

/** When an invitation stops working, or that it did: an expired one stays listed until the GM removes it. */
function expiryCell(invitation: Invitation): HTMLElement {
  if (invitation.status === 'expired')
    return h('td', { class: 'nowrap' }, h('span', { class: 'pill pill-muted invitation-expired' }, 'Expired'));
  return h(
    'td',
    { class: 'nowrap', title: shortDate(invitation.expiresAt), 'data-expires-at': invitation.expiresAt },
    timeUntil(invitation.expiresAt),
  );
}

function openInvitationsCard(invitations: Invitation[], revoke: (invitation: Invitation) => void): HTMLElement {
  const open = invitations.filter((invitation) => invitation.status !== 'used');
  if (open.length === 0) return h('div', {});
  return h(
    'section',
    { class: 'card card-flush', 'aria-labelledby': 'open-invitations-title', id: 'open-invitations' },
    h('h2', { class: 'card-flush-title', id: 'open-invitations-title' }, 'Open invitations'),
    h(
      'table',
      { class: 'table', 'aria-labelledby': 'open-invitations-title' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col' }, 'World'),
          h('th', { scope: 'col' }, 'Made'),
          h('th', { scope: 'col' }, 'Expires'),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h(
        'tbody',
        {},
        ...open.map((invitation) => {
          const expired = invitation.status === 'expired';
          const button = h(
            'button',
            {
              type: 'button',
              class: 'button button-danger-outline button-small',
              'aria-label': `${expired ? 'Remove' : 'Revoke'} the invitation for ${invitation.userName}`,
            },
            expired ? 'Remove' : 'Revoke',
          );
          button.addEventListener('click', () => revoke(invitation));
          return h(
            'tr',
            { 'data-invitation-id': invitation.id },
            h(
              'td',
              {},
              h('strong', {}, invitation.userName),
              h('span', { class: 'muted small block' }, invitation.name),
            ),
            h('td', {}, invitation.worldTitle ?? invitation.clientId),
            h('td', { class: 'nowrap' }, relativeTime(invitation.createdAt)),
            expiryCell(invitation),
            h('td', { class: 'actions' }, button),
          );
        }),
      ),
    ),
  );
}

/** The player's name as a connected world lists them, else what the key is bound to. */
function playerName(key: ApiKey, status: RelayStatus | undefined): string {
  const players = status?.worlds.flatMap((world) => world.players) ?? [];
  return players.find((player) => player.id === key.userId)?.name ?? key.userId ?? 'A player';
}

function worldOfKey(key: ApiKey, status: RelayStatus | undefined): string {
  const clientId = key.worldIds?.[0];
  const world = status?.worlds.find((candidate) => candidate.clientId === clientId);
  return world ? worldName(world) : (clientId ?? '');
}

/**
 * Each player's devices: the keys their invitations made, with when each was last used. Revoking one signs that device
 * out at once; the player page on it says so.
 */
function devicesCard(
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

export const playersPage: Page = {
  id: 'players',
  title: 'Players',
  subtitle: 'Invite players: each plays from their phone or tablet with a key of their own',
  icon: 'players',
  render(state: AppState) {
    const banner = h('div', {});
    const form = h('div', {});
    const shown = h('div', {});
    const list = h('div', {});
    const deviceList = h('div', {});
    const element = h('div', { class: 'stack' }, banner, shown, form, deviceList, list);
    let invitations: Invitation[] = [];
    let devices: ApiKey[] = [];
    let current: { id: string; markUsed: () => void } | undefined;
    let checking: ReturnType<typeof setInterval> | undefined;

    const drawList = () =>
      replaceChildren(
        list,
        openInvitationsCard(invitations, (invitation) => void revoke(invitation)),
      );
    const drawDevices = () =>
      replaceChildren(
        deviceList,
        devicesCard(devices, state.status.get(), (device, player) => void revokeDevice(device, player)),
      );
    const reload = async () => {
      try {
        const [open, keys] = await Promise.all([admin.invitations(), admin.keys()]);
        invitations = open.invitations;
        devices = keys.keys.filter((key) => key.invitationId !== undefined);
        drawList();
        drawDevices();
        if (current && invitations.find((invitation) => invitation.id === current?.id)?.status === 'used') {
          current.markUsed();
          clearInterval(checking);
        }
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const revoke = async (invitation: Invitation) => {
      const sure = await confirmDialog({
        title: `Revoke the invitation for ${invitation.userName}?`,
        message: 'Its link stops working at once. You can invite the player again afterwards.',
        confirm: 'Revoke invitation',
        danger: true,
      });
      if (!sure) return;
      try {
        toastRevoked(
          `The invitation for ${invitation.userName} was revoked`,
          await admin.revokeInvitation(invitation.id),
        );
        if (current?.id === invitation.id) closeShown();
        await reload();
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const revokeDevice = async (device: ApiKey, player: string) => {
      const sure = await confirmDialog({
        title: `Revoke ${player}'s device "${device.name}"?`,
        message:
          'Its key stops working at once, and the player page on that device says it was signed out. To play from it again, the player needs a new invitation.',
        confirm: 'Revoke device',
        danger: true,
      });
      if (!sure) return;
      try {
        toastRevoked(`${player}'s device "${device.name}" was revoked`, await admin.revokeKey(device.id));
        await reload();
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const closeShown = () => {
      clearInterval(checking);
      current = undefined;
      replaceChildren(shown);
    };
    const showInvitation = (invitation: NewInvitation) => {
      const card = invitationCard(invitation, state.status.get(), closeShown);
      clearInterval(checking);
      current = { id: invitation.id, markUsed: card.markUsed };
      replaceChildren(shown, card.element);
      checking = setInterval(() => void reload(), USED_CHECK_MS);
      void reload();
    };
    let drawnFor = '';
    const stopStatus = state.status.follow((status) => {
      replaceChildren(banner, status && !status.lan.enabled ? lanBanner() : null);
      drawDevices();
      // The form is drawn again only when the worlds or their users changed, so a choice in progress stays.
      const worlds = JSON.stringify(
        status?.worlds.map((world) => [
          world.clientId,
          world.worldTitle,
          world.players.map((player) => [player.id, player.name, player.role]),
        ]),
      );
      if (worlds === drawnFor) return;
      drawnFor = worlds;
      replaceChildren(form, inviteForm(status, showInvitation));
    });
    void reload();
    const refreshing = setInterval(() => void reload(), DEVICES_CHECK_MS);
    return {
      element,
      dispose: () => {
        stopStatus();
        clearInterval(checking);
        clearInterval(refreshing);
      },
    };
  },
};
