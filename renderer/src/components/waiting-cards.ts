// A card per thing that waits for the GM (a tool's key request, a held change): cards come as things start waiting and
// go once decided, leaving the others (and what the GM ticked on them) as they are; countdowns move, and a card whose
// time is up can no longer be approved. The desktop app's notification opens the settings at `#status/<kind>/<code>`,
// and that card is scrolled to and focused.
import type { RelayStatus } from '../admin-api.ts';
import { h, icon, replaceChildren, toast } from '../dom.ts';
import { countdown } from '../format.ts';

export interface WaitingCardsSection {
  element: HTMLElement;
  update(status: RelayStatus | undefined): void;
  tick(): void;
}

export interface WaitingCards<T extends { code: string }> {
  /** Names the section's title: `<id>-title`. */
  id: string;
  /** The card the desktop app's notification opens: `#status/<hashKind>/<code>`. */
  hashKind: string;
  /** Classes of the section beside `card card-attention`, and of its list. */
  sectionClass?: string;
  listClass: string;
  intro: string;
  iconName: string;
  heading(count: number): string;
  waiting(status: RelayStatus | undefined): T[];
  /** The card, marked with `data-expires-at` and `tabindex="-1"`; its approve button `data-action="approve"`. */
  card(item: T, status: RelayStatus | undefined): HTMLElement;
}

function codeInHash(kind: string): string | undefined {
  const prefix = location.hash.match(/^#\/?status\//)?.[0];
  if (!prefix || !location.hash.startsWith(`${prefix}${kind}/`)) return undefined;
  return decodeURIComponent(location.hash.slice(`${prefix}${kind}/`.length)) || undefined;
}

export function waitingCardsSection<T extends { code: string }>(spec: WaitingCards<T>): WaitingCardsSection {
  const title = h('h2', { id: `${spec.id}-title` });
  const list = h('ul', { class: spec.listClass });
  const element = h(
    'section',
    {
      class: ['card card-attention', spec.sectionClass].filter(Boolean).join(' '),
      'aria-labelledby': `${spec.id}-title`,
      hidden: true,
    },
    h('div', { class: 'card-header' }, title, h('p', { class: 'muted' }, spec.intro)),
    list,
  );
  const cards = new Map<string, HTMLElement>();
  let focusedFor = '';
  const focusRequested = () => {
    const code = codeInHash(spec.hashKind);
    const card = code ? cards.get(code) : undefined;
    if (!card || focusedFor === location.hash) return;
    focusedFor = location.hash;
    card.scrollIntoView({ block: 'center' });
    card.focus({ preventScroll: true });
  };

  return {
    element,
    update(status) {
      const items = spec.waiting(status);
      const waiting = new Set(items.map((item) => item.code));
      for (const [code, card] of cards) {
        if (waiting.has(code)) continue;
        card.remove();
        cards.delete(code);
      }
      for (const item of items) {
        if (cards.has(item.code)) continue;
        const card = spec.card(item, status);
        cards.set(item.code, card);
        list.append(card);
      }
      element.hidden = items.length === 0;
      replaceChildren(title, icon(spec.iconName), spec.heading(items.length));
      focusRequested();
    },
    tick() {
      for (const node of list.querySelectorAll<HTMLElement>('[data-expires]'))
        node.textContent = countdown(node.dataset.expires!);
      for (const card of cards.values()) {
        const expired = Date.parse(card.dataset.expiresAt!) <= Date.now();
        card.classList.toggle('is-expired', expired);
        const approve = card.querySelector<HTMLButtonElement>('[data-action="approve"]');
        if (expired && approve) approve.disabled = true;
      }
    },
  };
}

export interface DecisionButtons {
  approve: HTMLButtonElement;
  deny: HTMLButtonElement;
  /** Sends the GM's answer as the buttons do: for a form whose submit is Approve. */
  decide(approved: boolean): Promise<void>;
}

/**
 * A waiting card's Approve and Deny buttons. `send` gives the GM's answer and says what was done; both buttons are off
 * while it goes, and on again, with its error shown, if it fails. With `submits`, Approve is its form's submit button.
 */
export function decisionButtons(
  send: (approved: boolean) => Promise<string>,
  { submits = false }: { submits?: boolean } = {},
): DecisionButtons {
  const approve = h(
    'button',
    { type: submits ? 'submit' : 'button', class: 'button button-primary', 'data-action': 'approve' },
    icon('check'),
    'Approve',
  );
  const deny = h('button', { type: 'button', class: 'button button-secondary', 'data-action': 'deny' }, 'Deny');
  const decide = async (approved: boolean) => {
    approve.disabled = deny.disabled = true;
    try {
      toast(await send(approved));
    } catch (error) {
      approve.disabled = deny.disabled = false;
      toast((error as Error).message, 'error');
    }
  };
  if (!submits) approve.addEventListener('click', () => void decide(true));
  deny.addEventListener('click', () => void decide(false));
  return { approve, deny, decide };
}
