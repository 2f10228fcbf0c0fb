// What a change did to each document, in words and a field-by-field table: the Changes view, the held changes' cards and
// an undo's refusal all show changes this way.
import type { DocumentChangeView, FieldChangeView } from '../../../contracts/admin-api.ts';
import { h } from '../dom.ts';
import { plural } from '../format.ts';

/** Documents shown whole before "and N more"; fields shown per document likewise. */
const MOST_DOCUMENTS = 12;
const MOST_FIELDS = 10;
const LONGEST_VALUE = 120;

const VERBS: Record<DocumentChangeView['kind'], string> = { created: 'Made', deleted: 'Deleted', changed: 'Changed' };

/** Embedded collections a GM counts in a deleted or made document: "with 3 items and 1 effect". */
const COUNTED: Record<string, [one: string, many: string]> = {
  items: ['item', 'items'],
  effects: ['effect', 'effects'],
  tokens: ['token', 'tokens'],
  pages: ['page', 'pages'],
  combatants: ['combatant', 'combatants'],
  sounds: ['sound', 'sounds'],
  results: ['result', 'results'],
  walls: ['wall', 'walls'],
};

/** A value as a GM reads it: text as it is, nothing as "not set", objects as short JSON. */
export function shownValue(value: unknown, present = true): string {
  if (!present) return 'not set';
  if (value === null || value === '') return 'empty';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > LONGEST_VALUE ? `${text.slice(0, LONGEST_VALUE - 1)}…` : text;
}

function contents(document: Record<string, unknown> | undefined): string {
  if (!document) return '';
  const counts = Object.entries(COUNTED)
    .map(([field, [one, many]]) => {
      const entries = document[field];
      return Array.isArray(entries) && entries.length > 0 ? plural(entries.length, one, many) : '';
    })
    .filter(Boolean);
  return counts.length > 0 ? ` with ${counts.join(' and ')}` : '';
}

function fieldRow(field: FieldChangeView): HTMLElement {
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, h('code', {}, field.path)),
    h('td', { class: 'diff-before' }, shownValue(field.before, Object.hasOwn(field, 'before'))),
    h('td', { class: 'diff-arrow', 'aria-hidden': 'true' }, '→'),
    h('td', { class: 'diff-after' }, shownValue(field.after, Object.hasOwn(field, 'after'))),
  );
}

function fieldTable(fields: readonly FieldChangeView[]): HTMLElement {
  const shown = fields.slice(0, MOST_FIELDS);
  return h(
    'table',
    { class: 'diff-fields' },
    h(
      'thead',
      { class: 'visually-hidden' },
      h('tr', {}, h('th', {}, 'Field'), h('th', {}, 'Before'), h('th', {}, ''), h('th', {}, 'After')),
    ),
    h('tbody', {}, ...shown.map(fieldRow)),
    fields.length > shown.length
      ? h(
          'tfoot',
          {},
          h(
            'tr',
            {},
            h('td', { colspan: 4, class: 'muted small' }, `and ${plural(fields.length - shown.length, 'more field')}`),
          ),
        )
      : null,
  );
}

function documentChange(change: DocumentChangeView): HTMLElement {
  const name = change.name ?? change.uuid.split('.').at(-1) ?? change.uuid;
  return h(
    'li',
    { class: `diff-document diff-${change.kind}`, 'data-uuid': change.uuid },
    h(
      'p',
      { class: 'diff-title' },
      h('span', { class: `diff-verb diff-verb-${change.kind}` }, VERBS[change.kind]),
      h('strong', {}, name),
      h(
        'span',
        { class: 'muted small' },
        ` ${change.documentName}${change.kind === 'changed' ? '' : contents(change.document)}`,
      ),
    ),
    change.kind === 'changed' && change.fields ? fieldTable(change.fields) : null,
  );
}

/** The changes, document by document; an empty list says nothing changed. */
export function changeDiff(changes: readonly DocumentChangeView[]): HTMLElement {
  if (changes.length === 0) return h('p', { class: 'muted small' }, 'Nothing changed.');
  const shown = changes.slice(0, MOST_DOCUMENTS);
  return h(
    'ul',
    { class: 'diff' },
    ...shown.map(documentChange),
    changes.length > shown.length
      ? h('li', { class: 'muted small' }, `and ${plural(changes.length - shown.length, 'more document')}`)
      : null,
  );
}
