import type { ActivityEntry } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { emptyState, h, replaceChildren } from '../dom.ts';
import { clockTime } from '../format.ts';
import { changesView } from '../components/changes-view.ts';

function statusClass(status: number): string {
  if (status >= 500) return 'badge badge-error';
  if (status >= 400) return 'badge badge-warning';
  return 'badge badge-success';
}

function duration(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString()} ms`;
}

/** The key's name; a call without one says whether it sent no key or one the relay does not know. */
function caller(entry: ActivityEntry): HTMLElement | string {
  if (entry.keyName !== null) return entry.keyName;
  return h('span', { class: 'muted' }, entry.keyProblem === 'unknown' ? 'Unknown key' : 'No key');
}

/** A refused call is marked and says why, as its caller was told; a call that went otherwise than asked says how. */
function row(entry: ActivityEntry): HTMLElement {
  const refused = entry.reason !== undefined;
  return h(
    'tr',
    { class: refused ? 'activity-refused' : undefined },
    h('td', { class: 'nowrap muted' }, h('time', { datetime: entry.time }, clockTime(entry.time))),
    h('td', {}, caller(entry)),
    h(
      'td',
      { class: 'activity-call' },
      h(
        'span',
        { class: 'endpoint' },
        h('span', { class: `method method-${entry.method.toLowerCase()}` }, entry.method),
        h('code', {}, entry.path),
      ),
      refused && h('p', { class: 'activity-reason' }, entry.reason),
      entry.note !== undefined && h('p', { class: 'activity-note muted' }, entry.note),
    ),
    h('td', {}, h('span', { class: statusClass(entry.status) }, String(entry.status))),
    h('td', { class: 'numeric nowrap' }, duration(entry.durationMs)),
  );
}

/** `#activity/changes` shows the Changes view; `#activity` the calls. */
const CHANGES_IN_HASH = /^#\/?activity\/changes\b/;

/** The two views of the page, as links: each is a place of its own in the window's history. */
function viewTabs(changes: boolean): HTMLElement {
  const tab = (href: string, label: string, current: boolean) =>
    h('a', { href, class: 'tab', 'aria-current': current ? 'page' : undefined }, label);
  return h(
    'nav',
    { class: 'tabs', 'aria-label': 'Activity views' },
    tab('#activity', 'Calls', !changes),
    tab('#activity/changes', 'Changes', changes),
  );
}

export const activityPage: Page = {
  id: 'activity',
  title: 'Activity',
  subtitle: 'The latest API calls as they happen, and every change tools made to your worlds, with Undo',
  icon: 'activity',
  render(state: AppState) {
    const changes = CHANGES_IN_HASH.test(location.hash);
    const view = changes ? changesView(state) : callsView(state);
    return { element: h('div', { class: 'stack' }, viewTabs(changes), view.element), dispose: view.dispose };
  },
};

/** The calls as they happen, refused ones with why. */
function callsView(state: AppState): { element: HTMLElement; dispose(): void } {
  const element = h('div', { class: 'stack' });
  const draw = (entries: ActivityEntry[]) => {
    if (entries.length === 0) {
      replaceChildren(
        element,
        h(
          'div',
          { class: 'card' },
          emptyState(
            'activity',
            'No API calls yet',
            'Calls your tools make show up here the moment they happen, refused ones with the reason. Keys and query strings are never shown.',
          ),
        ),
      );
      return;
    }
    replaceChildren(
      element,
      h(
        'div',
        { class: 'card card-flush' },
        h(
          'table',
          { class: 'table table-compact', 'aria-label': 'Recent API calls' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['Time', 'Key', 'Endpoint', 'Status', 'Duration'].map((title) =>
                h('th', { scope: 'col', class: title === 'Duration' ? 'numeric' : '' }, title),
              ),
            ),
          ),
          h('tbody', {}, ...entries.map(row)),
        ),
      ),
      h(
        'p',
        { class: 'muted small center' },
        `The last ${entries.length} call${entries.length === 1 ? '' : 's'}; the relay keeps up to 200.`,
      ),
    );
  };
  return { element, dispose: state.activity.follow(draw) };
}
