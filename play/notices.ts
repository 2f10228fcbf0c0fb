// What the page says when it cannot show the game, each time with what the player can do about it, and the panel
// about this device: who it is signed in as, the key for another tool, signing out.
import type { PlaySession } from '../contracts/play.ts';
import { h, icon } from './dom.ts';
import { redeemInvitation, type SignIn } from './sign-in.ts';

export type Notice =
  'no-key' | 'signed-out' | 'signed-out-here' | 'world-away' | 'unreachable' | 'refused' | 'no-character';

interface NoticeOptions {
  world?: string;
  message?: string;
  retry?: () => void;
}

/** The notices after which the player signs in with an invitation link, pasted here. */
const SIGN_IN_HERE: readonly Notice[] = ['no-key', 'signed-out', 'signed-out-here'];

const ASK_FOR_INVITATION = 'To play from here again, ask the GM for a new invitation and open it on this device.';

function wordsOf(notice: Notice, { world = 'The world', message = '' }: NoticeOptions): [string, string] {
  switch (notice) {
    case 'no-key':
      return [
        'This device is not signed in',
        'Open the invitation link your GM sent you, or scan its QR code, on this device: it signs you in here.',
      ];
    case 'signed-out':
      return [
        'This device was signed out',
        `The GM revoked this device's key, so the page forgot it. ${ASK_FOR_INVITATION}`,
      ];
    case 'signed-out-here':
      return ['Signed out', `This device forgot its key. ${ASK_FOR_INVITATION}`];
    case 'world-away':
      return [`${world} is not running`, 'The page fills in by itself as soon as the GM starts the world in Foundry.'];
    case 'unreachable':
      return [
        'The relay cannot be reached',
        "Check that this device is on the same network as the GM's computer and that Tabletop Relay runs there. The page tries again by itself.",
      ];
    case 'refused':
      return ['Something went wrong', message];
    case 'no-character':
      return [
        `No character of yours in ${world}`,
        'The GM can make you the owner of a character in Foundry. Meanwhile, roll dice and follow the table.',
      ];
  }
}

export function notice(kind: Notice, options: NoticeOptions = {}): HTMLElement {
  const [title, text] = wordsOf(kind, options);
  return h(
    'section',
    { class: `notice notice-${kind}`, id: 'notice', 'data-notice': kind },
    h('div', { class: 'brand' }, icon('dice'), h('span', {}, 'Tabletop Relay')),
    h('h1', {}, title),
    h('p', {}, text),
    options.retry ? h('button', { type: 'button', class: 'button', onclick: options.retry }, 'Try again') : null,
    SIGN_IN_HERE.includes(kind) ? invitationForm() : null,
  );
}

/**
 * Signs in with an invitation link pasted into the page: what a page on an iPhone's home screen needs, since it keeps
 * storage of its own and has no address bar to open the link in.
 */
function invitationForm(): HTMLElement {
  const input = h('input', {
    class: 'input',
    id: 'invitation-link',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: 'http://…/invite#ttr_inv_…',
    'aria-label': 'Invitation link',
  });
  const problem = h('p', { class: 'problem', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'button' }, 'Sign in');
  const form = h(
    'form',
    { class: 'stack', id: 'invitation-form' },
    h('label', { class: 'label', for: 'invitation-link' }, 'Or paste an invitation link here'),
    h('div', { class: 'formula-row' }, input, submit),
    problem,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    void redeemInvitation(input.value).then(
      () => location.reload(),
      (error: unknown) => {
        problem.textContent = error instanceof Error ? error.message : String(error);
        submit.disabled = false;
      },
    );
  });
  return form;
}

/** On an iPhone or iPad, where a page added to the home screen keeps storage of its own. */
function onAppleMobile(): boolean {
  return /iPhone|iPad|iPod/.test(navigator.userAgent);
}

export function devicePanel(stored: SignIn, session: PlaySession, onSignOut: () => void): HTMLElement {
  const panel = h('div', {
    class: 'sheet-backdrop',
    id: 'device-panel',
    role: 'dialog',
    'aria-modal': 'true',
    'aria-labelledby': 'device-title',
  });
  const close = () => panel.remove();
  panel.addEventListener('click', (event) => {
    if (event.target === panel) close();
  });
  const signOutButton = h(
    'button',
    { type: 'button', class: 'button button-danger', id: 'sign-out' },
    'Sign out of this device',
  );
  signOutButton.addEventListener('click', () => {
    if (!window.confirm('Sign out? This device forgets its key: to play here again you need a new invitation.')) return;
    close();
    onSignOut();
  });
  panel.append(
    h(
      'section',
      { class: 'bottom-sheet' },
      h(
        'div',
        { class: 'card-title-row' },
        h('h2', { id: 'device-title' }, 'This device'),
        h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close', onclick: close }, icon('close')),
      ),
      h(
        'p',
        {},
        'Signed in as ',
        h('strong', {}, session.user.name),
        ' in ',
        h('strong', {}, session.world.title),
        '.',
      ),
      h(
        'p',
        { class: 'muted small' },
        `Its key, "${stored.name}", acts as you only, with your own permissions in Foundry. The GM can revoke it on the Players page.`,
      ),
      h(
        'details',
        { class: 'install' },
        h('summary', {}, 'Put it on the home screen'),
        h(
          'p',
          { class: 'small' },
          onAppleMobile()
            ? 'Tap Share, then Add to Home Screen. On iPhone and iPad the page on the home screen keeps its own sign-in: open it there and paste a new invitation link from your GM into it.'
            : "Open the browser's menu, then Add to Home screen.",
        ),
      ),
      h(
        'details',
        { class: 'install' },
        h('summary', {}, 'Use the key in another tool'),
        copyField('Relay address', stored.relayUrl || location.origin),
        copyField('API key', stored.key),
      ),
      signOutButton,
    ),
  );
  return panel;
}

function copyField(label: string, value: string): HTMLElement {
  const input = h('input', { class: 'input input-mono', readonly: true, value, 'aria-label': label });
  const copy = h('button', { type: 'button', class: 'button button-secondary' }, 'Copy');
  // The clipboard API exists only in a secure context: on a LAN address over http the field is selected and copied.
  copy.addEventListener('click', async () => {
    let copied: boolean;
    try {
      await navigator.clipboard.writeText(value);
      copied = true;
    } catch {
      input.select();
      copied = document.execCommand('copy');
    }
    copy.textContent = copied ? 'Copied' : 'Select and copy';
  });
  return h(
    'label',
    { class: 'field' },
    h('span', { class: 'label' }, label),
    h('div', { class: 'formula-row' }, input, copy),
  );
}
