import { admin, type ApiKey, type Invitation, type NewInvitation } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { confirmDialog, h, icon, replaceChildren, toast, toastRevoked } from '../dom.ts';
import { relativeTime, shortDate, timeUntil } from '../format.ts';
import { inviteForm } from '../components/invite-form.ts';
import { invitationCard } from '../components/invitation-card.ts';
import { devicesCard } from '../components/player-devices.ts';
/** How often the shown invitation is checked, to say when the player has opened it. */
const USED_CHECK_MS = 2000;
/** How often the devices' last use is looked at again while the page is open. */
const DEVICES_CHECK_MS = 15_000;

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
