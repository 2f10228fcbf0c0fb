import type { ActivityEntry } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { emptyState, h, replaceChildren } from '../dom.ts';
import { clockTime } from '../format.ts';

function statusClass(status: number): string {
  if (status >= 500) return 'badge badge-error';
  if (status >= 400) return 'badge badge-warning';
  return 'badge badge-success';
}

function duration(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString()} ms`;
}

function row(entry: ActivityEntry): HTMLElement {
  return h('tr', {},
    h('td', { class: 'nowrap muted' }, h('time', { datetime: entry.time }, clockTime(entry.time))),
    h('td', {}, entry.keyName ?? h('span', { class: 'muted' }, 'No key')),
    h('td', {}, h('span', { class: 'endpoint' }, h('span', { class: `method method-${entry.method.toLowerCase()}` }, entry.method), h('code', {}, entry.path))),
    h('td', {}, h('span', { class: statusClass(entry.status) }, String(entry.status))),
    h('td', { class: 'numeric nowrap' }, duration(entry.durationMs)),
  );
}

export const activityPage: Page = {
  id: 'activity',
  title: 'Activity',
  subtitle: 'The latest API calls, as they happen',
  icon: 'activity',
  render(state: AppState) {
    const element = h('div', { class: 'stack' });
    const draw = (entries: ActivityEntry[]) => {
      if (entries.length === 0) {
        replaceChildren(element, h('div', { class: 'card' }, emptyState('activity', 'No API calls yet', 'Calls your tools make with an API key show up here the moment they happen. Keys and query strings are never shown.')));
        return;
      }
      replaceChildren(element,
        h('div', { class: 'card card-flush' },
          h('table', { class: 'table table-compact', 'aria-label': 'Recent API calls' },
            h('thead', {}, h('tr', {}, ...['Time', 'Key', 'Endpoint', 'Status', 'Duration'].map((title) => h('th', { scope: 'col', class: title === 'Duration' ? 'numeric' : '' }, title)))),
            h('tbody', {}, ...entries.map(row)))),
        h('p', { class: 'muted small center' }, `The last ${entries.length} call${entries.length === 1 ? '' : 's'}; the relay keeps up to 200.`),
      );
    };
    return { element, dispose: state.activity.follow(draw) };
  },
};
