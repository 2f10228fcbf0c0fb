// The Activity page's Changes view: every change tools made to the worlds, newest first, each with what it did to every
// document and an Undo button; the journal's own settings (record or not, how many changes and for how long).
import { admin, ApiError, type ChangeView, type RelaySettings } from '../admin-api.ts';
import type { AppState } from '../app-state.ts';
import { confirmDialog, emptyState, h, icon, replaceChildren, toast, toggle } from '../dom.ts';
import { clockTime, plural, relativeTime } from '../format.ts';
import type { UndoRefusal } from '../../../contracts/admin-api.ts';
import { changeDiff } from './change-diff.ts';
import { field, numberInput } from './fields.ts';

function stateNote(change: ChangeView, byId: ReadonlyMap<string, ChangeView>): HTMLElement | null {
  if (change.undoneBy) return h('span', { class: 'pill pill-muted' }, 'Undone');
  if (change.undoes) {
    const undone = byId.get(change.undoes);
    return h('span', { class: 'pill pill-muted' }, undone ? `Undid: ${undone.summary}` : 'An undo');
  }
  if (change.state === 'pending') return h('span', { class: 'pill pill-waiting' }, 'Waiting for the world');
  if (change.state === 'unknown') return h('span', { class: 'pill pill-warning' }, 'Outcome unknown');
  return null;
}

/** What the change did; for one the relay could not read again, what was asked and what the documents were. */
function body(change: ChangeView): HTMLElement {
  if (change.notUndoable)
    return h(
      'div',
      { class: 'change-body' },
      h('p', { class: 'muted small' }, h('strong', {}, 'Cannot be undone: '), change.notUndoable),
      h('pre', { class: 'change-asked' }, JSON.stringify(change.asked, null, 2)),
    );
  if (change.state === 'unknown')
    return h(
      'div',
      { class: 'change-body' },
      h(
        'p',
        { class: 'muted small' },
        'The relay stopped, or the world went silent, before it could see what this call did. Undo puts the documents it touched back as they were before it.',
      ),
    );
  return h('div', { class: 'change-body' }, changeDiff(change.changes));
}

function undoable(change: ChangeView): boolean {
  return !change.notUndoable && !change.undoneBy && change.state !== 'pending';
}

async function undo(change: ChangeView, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  try {
    await admin.undo(change.id);
    toast(`Undone: ${change.summary}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && Array.isArray(error.answer.differences)) {
      await undoAnyway(change, error.answer as unknown as UndoRefusal);
    } else toast((error as Error).message, 'error');
  } finally {
    button.disabled = false;
  }
}

/** The documents changed again since: the GM sees how, and may put them back all the same. */
async function undoAnyway(change: ChangeView, refusal: UndoRefusal): Promise<void> {
  const sure = await confirmDialog({
    title: 'Changed again since',
    message: refusal.error,
    confirm: 'Undo anyway',
    danger: true,
    details: h('div', { class: 'dialog-diff' }, changeDiff(refusal.differences)),
  });
  if (!sure) return;
  try {
    await admin.undo(change.id, true);
    toast(`Undone: ${change.summary}`);
  } catch (error) {
    toast((error as Error).message, 'error');
  }
}

function changeCard(change: ChangeView, byId: ReadonlyMap<string, ChangeView>): HTMLElement {
  const undoButton = h(
    'button',
    { type: 'button', class: 'button button-secondary button-small', 'data-action': 'undo' },
    'Undo',
  );
  undoButton.disabled = !undoable(change);
  undoButton.addEventListener('click', () => void undo(change, undoButton));
  return h(
    'li',
    { class: 'change', 'data-change-id': change.id },
    h(
      'div',
      { class: 'change-head' },
      h(
        'div',
        { class: 'change-what' },
        h('strong', {}, change.summary),
        h(
          'span',
          { class: 'muted small' },
          h('time', { datetime: change.at, title: clockTime(change.at) }, relativeTime(change.at)),
          ' · ',
          change.by.name,
          ' · ',
          change.worldTitle ?? change.clientId,
          ' · ',
          h('code', {}, `${change.method} ${change.path}`),
        ),
      ),
      h('div', { class: 'change-side' }, stateNote(change, byId), change.notUndoable ? null : undoButton),
    ),
    body(change),
  );
}

/** The journal's settings, changed in place. */
function journalSettings(settings: RelaySettings, saved: (settings: RelaySettings) => void): HTMLElement {
  let { journalMaxChanges, journalMaxDays } = settings;
  const save = async (changes: Partial<RelaySettings>) => saved(await admin.updateSettings(changes));
  const saveButton = h('button', { type: 'submit', class: 'button button-secondary button-small' }, 'Save');
  const form = h(
    'form',
    { class: 'journal-settings', 'aria-label': 'Journal settings' },
    toggle('journal-on', 'Record changes tools make', settings.journalChanges, (on) => save({ journalChanges: on })),
    h(
      'div',
      { class: 'field-grid' },
      field(
        'journal-max-changes',
        'Changes kept',
        numberInput('journal-max-changes', journalMaxChanges, { min: 1, max: 100_000 }, (value) => {
          journalMaxChanges = value;
        }),
        'The oldest go first.',
      ),
      field(
        'journal-max-days',
        'Days kept',
        numberInput('journal-max-days', journalMaxDays, { min: 1, max: 3650 }, (value) => {
          journalMaxDays = value;
        }),
        'Older changes can no longer be undone.',
      ),
    ),
    h('div', { class: 'form-actions' }, saveButton),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    saveButton.disabled = true;
    try {
      await save({ journalMaxChanges, journalMaxDays });
      toast('Journal settings saved');
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      saveButton.disabled = false;
    }
  });
  return form;
}

function keptLine(settings: RelaySettings | undefined): string {
  if (!settings) return '';
  if (!settings.journalChanges) return 'Recording is off: changes tools make now go unrecorded and cannot be undone.';
  return `Keeps the last ${plural(settings.journalMaxChanges, 'change')} for ${plural(settings.journalMaxDays, 'day')}.`;
}

export function changesView(state: AppState): { element: HTMLElement; dispose(): void } {
  const changes = new Map<string, ChangeView>();
  // Each card is drawn again only when its own change moves, so a button the GM is about to press stays in place.
  const cards = new Map<string, HTMLElement>();
  let settings: RelaySettings | undefined;
  const line = h('p', { class: 'muted' });
  const settingsSlot = h('div', {});
  const settingsButton = h('button', { type: 'button', class: 'button button-link' }, 'Settings');
  const empty = h(
    'div',
    { class: 'card' },
    emptyState(
      'activity',
      'No changes yet',
      'When a tool changes a world (a Stream Deck button, a bot, an assistant), the change shows here with what it did to each document, and Undo.',
    ),
  );
  const list = h('ol', { class: 'changes', 'aria-label': 'Changes tools made' });
  const older = h('button', { type: 'button', class: 'button button-secondary', hidden: true }, 'Show older changes');
  const element = h(
    'div',
    { class: 'stack' },
    h(
      'section',
      { class: 'card changes-intro' },
      h(
        'div',
        { class: 'card-header-row' },
        h('div', { class: 'card-header' }, h('h2', {}, icon('activity'), 'Changes tools made to your worlds'), line),
        settingsButton,
      ),
      settingsSlot,
    ),
    empty,
    list,
    h('div', { class: 'center' }, older),
  );

  const place = (change: ChangeView) => {
    changes.set(change.id, change);
    const card = changeCard(change, changes);
    const drawn = cards.get(change.id);
    cards.set(change.id, card);
    if (drawn) drawn.replaceWith(card);
    else {
      // Newest first: before the newest of the older ones.
      const next = [...cards.keys()]
        .filter((id) => id < change.id)
        .sort()
        .at(-1);
      list.insertBefore(card, next === undefined ? null : cards.get(next)!);
    }
    empty.hidden = true;
  };
  const remove = (id: string) => {
    changes.delete(id);
    cards.get(id)?.remove();
    cards.delete(id);
    empty.hidden = cards.size > 0;
  };
  const showSettings = (current: RelaySettings) => {
    settings = current;
    replaceChildren(line, keptLine(settings));
  };
  const add = (page: { changes: ChangeView[]; more: boolean }) => {
    for (const change of page.changes) place(change);
    older.hidden = !page.more;
  };
  older.addEventListener('click', async () => {
    const oldest = [...changes.keys()].sort()[0];
    try {
      add(await admin.changes(oldest));
    } catch (error) {
      toast((error as Error).message, 'error');
    }
  });
  settingsButton.addEventListener('click', () => {
    if (settingsSlot.childElementCount > 0 || !settings) return replaceChildren(settingsSlot);
    replaceChildren(settingsSlot, journalSettings(settings, showSettings));
  });
  Promise.all([admin.changes(), admin.settings()]).then(
    ([page, current]) => {
      showSettings(current);
      add(page);
    },
    (error: unknown) => toast((error as Error).message, 'error'),
  );
  const stop = state.journal.onChange((event) => {
    if (!event) return;
    if ('change' in event) place(event.change);
    else remove(event.dropped);
  });
  return { element, dispose: stop };
}
