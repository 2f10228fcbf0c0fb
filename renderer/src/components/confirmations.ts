// The Status page's held changes: a key that asks before changes (an AI assistant's, say) sent a write, and it waits
// here, with what it would change, until the GM approves it, denies it, or the time runs out.
import { admin, type ConfirmationView } from '../admin-api.ts';
import { h } from '../dom.ts';
import { countdown } from '../format.ts';
import { changeDiff } from './change-diff.ts';
import { decisionButtons, waitingCardsSection, type WaitingCardsSection } from './waiting-cards.ts';

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
  const { approve, deny } = decisionButtons(async (approved) => {
    if (!approved) {
      await admin.denyChange(held.code);
      return `Denied: ${held.keyName} was told no`;
    }
    await admin.approveChange(held.code);
    return `Approved: ${held.summary}`;
  });
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

export function confirmationsSection(): WaitingCardsSection {
  return waitingCardsSection({
    id: 'confirmations',
    hashKind: 'confirmation',
    listClass: 'confirmations',
    intro:
      'These keys ask before they change a world. Nothing happens until you approve; the tool waits for your answer.',
    iconName: 'warning',
    heading: (count) => (count === 1 ? 'A change waits for your approval' : `${count} changes wait for your approval`),
    waiting: (status) => status?.confirmations ?? [],
    card: (change, status) => {
      const world = status?.worlds.find((candidate) => candidate.clientId === change.clientId);
      return heldCard(change, change.worldTitle ?? world?.worldTitle ?? change.clientId);
    },
  });
}
