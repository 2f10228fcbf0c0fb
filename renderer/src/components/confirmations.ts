// The Status page's held changes: a key that asks before changes (an AI assistant's, say) sent a write, and it waits
// here, with what it would change, until the GM approves it, denies it, or the time runs out.
import { admin, type ConfirmationView, type RelayStatus } from '../admin-api.ts';
import { h, icon, replaceChildren, toast } from '../dom.ts';
import { countdown } from '../format.ts';
import { changeDiff } from './change-diff.ts';

/** `#status/confirmation/<code>`: where the desktop app's notification opens the settings. */
const CONFIRMATION_IN_HASH = /^#\/?status\/confirmation\/(.+)$/;

function requestedCode(): string | undefined {
  const match = CONFIRMATION_IN_HASH.exec(location.hash);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/** What the change would do: the diff where the relay can tell, otherwise what was asked. */
function preview(held: ConfirmationView): HTMLElement {
  if (held.changes) return changeDiff(held.changes);
  return h(
    'div',
    {},
    h(
      'p',
      { class: 'muted small' },
      held.notUndoable
        ? `Only the world can tell what this does, and it cannot be undone: ${held.notUndoable}.`
        : 'Only the world can tell what this does; it can be undone from Activity, Changes. What the tool asks:',
    ),
    h('pre', { class: 'change-asked' }, JSON.stringify(held.asked, null, 2)),
  );
}

function heldCard(held: ConfirmationView, worldTitle: string): HTMLElement {
  const approve = h(
    'button',
    { type: 'button', class: 'button button-primary', 'data-action': 'approve' },
    icon('check'),
    'Approve',
  );
  const deny = h('button', { type: 'button', class: 'button button-secondary', 'data-action': 'deny' }, 'Deny');
  const decide = async (approved: boolean) => {
    approve.disabled = deny.disabled = true;
    try {
      await (approved ? admin.approveChange(held.code) : admin.denyChange(held.code));
      toast(approved ? `Approved: ${held.summary}` : `Denied: ${held.keyName} was told no`);
    } catch (error) {
      approve.disabled = deny.disabled = false;
      toast((error as Error).message, 'error');
    }
  };
  approve.addEventListener('click', () => void decide(true));
  deny.addEventListener('click', () => void decide(false));
  return h(
    'li',
    { class: 'confirmation', 'data-code': held.code, 'data-expires-at': held.expiresAt, tabindex: -1 },
    h(
      'div',
      { class: 'change-head' },
      h(
        'div',
        { class: 'change-what' },
        h('strong', {}, `${held.keyName}: ${held.summary}`),
        h(
          'span',
          { class: 'muted small' },
          worldTitle,
          ' · ',
          h('code', {}, `${held.method} ${held.path}`),
          ' · refused in ',
          h('span', { 'data-expires': held.expiresAt }, countdown(held.expiresAt)),
          ' unless you approve',
        ),
      ),
      h('div', { class: 'change-side' }, deny, approve),
    ),
    h('div', { class: 'change-body' }, preview(held)),
  );
}

export interface ConfirmationsSection {
  element: HTMLElement;
  /** Adds the cards of changes that came to wait and drops those decided, leaving the others as they are. */
  update(status: RelayStatus | undefined): void;
  /** Moves the countdowns; an expired change can no longer be approved. */
  tick(): void;
}

export function confirmationsSection(): ConfirmationsSection {
  const title = h('h2', { id: 'confirmations-title' });
  const list = h('ul', { class: 'confirmations' });
  const element = h(
    'section',
    { class: 'card card-attention', 'aria-labelledby': 'confirmations-title', hidden: true },
    h(
      'div',
      { class: 'card-header' },
      title,
      h(
        'p',
        { class: 'muted' },
        'These keys ask before they change a world. Nothing happens until you approve; the tool waits for your answer.',
      ),
    ),
    list,
  );
  const cards = new Map<string, HTMLElement>();
  let focusedFor = '';
  const focusRequested = () => {
    const code = requestedCode();
    const card = code ? cards.get(code) : undefined;
    if (!card || focusedFor === location.hash) return;
    focusedFor = location.hash;
    card.scrollIntoView({ block: 'center' });
    card.focus({ preventScroll: true });
  };
  return {
    element,
    update(status) {
      const held = status?.confirmations ?? [];
      const waiting = new Set(held.map((change) => change.code));
      for (const [code, card] of cards) {
        if (waiting.has(code)) continue;
        card.remove();
        cards.delete(code);
      }
      for (const change of held) {
        if (cards.has(change.code)) continue;
        const world = status?.worlds.find((candidate) => candidate.clientId === change.clientId);
        const card = heldCard(change, change.worldTitle ?? world?.worldTitle ?? change.clientId);
        cards.set(change.code, card);
        list.append(card);
      }
      element.hidden = held.length === 0;
      replaceChildren(
        title,
        icon('warning'),
        held.length === 1 ? 'A change waits for your approval' : `${held.length} changes wait for your approval`,
      );
      focusRequested();
    },
    tick() {
      for (const node of list.querySelectorAll<HTMLElement>('[data-expires]'))
        node.textContent = countdown(node.dataset.expires!);
      for (const card of cards.values()) {
        if (Date.parse(card.dataset.expiresAt!) > Date.now()) continue;
        card.classList.add('is-expired');
        card.querySelector<HTMLButtonElement>('[data-action="approve"]')!.disabled = true;
      }
    },
  };
}
