// A new invitation, shown once: its link and QR code, for this computer or the LAN.
import qrcode from 'qrcode-generator';
import type { NewInvitation, RelayStatus } from '../admin-api.ts';
import { copyButton, h, replaceChildren } from '../dom.ts';

/** The QR code's width in CSS pixels, drawn at twice that for sharp screens. */
const QR_SIZE = 216;

/** Modules of white around the code, as scanners expect. */
const QUIET_ZONE = 4;

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

/** The link on the address the GM picked: the secret stays in the fragment whatever the address. */
function linkOn(invitation: NewInvitation, base: string): string {
  return `${base}${new URL(invitation.url).pathname}${new URL(invitation.url).hash}`;
}

/** The new invitation: its QR code, its link with Copy, and whether the player has opened it yet. */
export function invitationCard(invitation: NewInvitation, status: RelayStatus | undefined, onDone: () => void) {
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
