import { admin, whenSignedOut, type ActivityEntry, type RelayStatus } from './admin-api.ts';
import { MAX_ACTIVITY, Observable, type AppState, type Page, type PageView } from './app-state.ts';
import { h, icon, replaceChildren } from './dom.ts';
import { followRelay, type JournalEvent, type LiveConnection } from './live.ts';
import { accessPage } from './pages/access.ts';
import { activityPage } from './pages/activity.ts';
import { capturePage } from './pages/capture.ts';
import { keysPage } from './pages/keys.ts';
import { playersPage } from './pages/players.ts';
import { overlaysPage } from './pages/overlays.ts';
import { statusPage } from './pages/status.ts';
import { streamDeckPage } from './pages/stream-deck.ts';
import { assistantsPage } from './pages/assistants.ts';
import { BRIDGE_NAME, type DesktopBridge } from '../../contracts/desktop-ipc.ts';

const PAGES: Page[] = [
  statusPage,
  keysPage,
  playersPage,
  overlaysPage,
  streamDeckPage,
  assistantsPage,
  accessPage,
  capturePage,
  activityPage,
];

const state: AppState = {
  status: new Observable<RelayStatus | undefined>(undefined),
  activity: new Observable<ActivityEntry[]>([]),
  journal: new Observable<JournalEvent | undefined>(undefined),
  connection: new Observable<LiveConnection>('connecting'),
  desktop: (window as unknown as Record<string, DesktopBridge | undefined>)[BRIDGE_NAME],
};

function pageFromHash(): Page {
  // A page's own part may follow its id: #status/key-request/<code>.
  const [id] = location.hash.replace(/^#\/?/, '').split('/');
  return PAGES.find((page) => page.id === id) ?? statusPage;
}

function navigation(): HTMLElement {
  const links = PAGES.map((page) =>
    h(
      'li',
      {},
      h(
        'a',
        { href: `#${page.id}`, class: 'nav-link', 'data-page': page.id },
        icon(page.icon),
        h('span', {}, page.title),
        page.id === 'status' ? h('span', { class: 'nav-badge', id: 'pair-badge', hidden: true }) : null,
      ),
    ),
  );
  return h('nav', { class: 'nav', 'aria-label': 'Settings' }, h('ul', {}, ...links));
}

function relayIndicator(): HTMLElement {
  const indicator = h('div', { class: 'relay-indicator', role: 'status', 'aria-live': 'polite' });
  const draw = () => {
    const status = state.status.get();
    const connection = state.connection.get();
    const [tone, text] =
      connection === 'offline'
        ? ['error', 'Relay not reachable']
        : !status
          ? ['muted', 'Connecting…']
          : status.paused
            ? ['warning', 'Paused']
            : [
                'success',
                status.worlds.length === 0
                  ? 'Running · no world'
                  : `Running · ${status.worlds.length} world${status.worlds.length === 1 ? '' : 's'}`,
              ];
    replaceChildren(
      indicator,
      h('span', { class: `dot dot-${tone}` }),
      h(
        'span',
        {},
        h('strong', {}, text),
        status ? h('span', { class: 'muted small block' }, status.url.replace(/^https?:\/\//, '')) : null,
      ),
    );
  };
  state.status.onChange(draw);
  state.connection.onChange(draw);
  draw();
  return indicator;
}

function signedOut(): void {
  document.body.replaceChildren(
    h(
      'main',
      { class: 'signed-out' },
      h(
        'div',
        { class: 'card' },
        h('img', { src: 'logo.svg', alt: '', width: 56, height: 56 }),
        h('h1', {}, 'Open the settings again'),
        h(
          'p',
          { class: 'muted' },
          'This page is no longer signed in to the relay (it restarted, or the link was used before).',
        ),
        h(
          'p',
          { class: 'muted' },
          'Use ',
          h('strong', {}, 'Open settings'),
          ' in the tray menu, or run ',
          h('code', {}, 'npm run settings'),
          ' in the project folder.',
        ),
      ),
    ),
  );
}

function start(): void {
  const title = h('h1', { id: 'page-title' });
  const subtitle = h('p', { class: 'muted' });
  const actions = h('div', { class: 'page-actions' });
  const content = h('div', { class: 'page-content' });
  const main = h(
    'main',
    { class: 'main', id: 'main', tabindex: -1, 'aria-labelledby': 'page-title' },
    h('header', { class: 'page-header' }, h('div', {}, title, subtitle), actions),
    content,
  );
  const sidebar = h(
    'aside',
    { class: 'sidebar' },
    h(
      'div',
      { class: 'brand' },
      h('img', { src: 'logo.svg', alt: '', width: 30, height: 30 }),
      h('span', {}, 'Tabletop Relay'),
    ),
    navigation(),
    relayIndicator(),
  );
  document
    .getElementById('app')!
    .replaceChildren(h('a', { href: '#main', class: 'skip-link' }, 'Skip to content'), sidebar, main);

  let current: PageView | undefined;
  const show = () => {
    const page = pageFromHash();
    current?.dispose();
    current = page.render(state);
    title.textContent = page.title;
    subtitle.textContent = page.subtitle;
    document.title = `${page.title} · Tabletop Relay`;
    replaceChildren(actions, current.actions);
    replaceChildren(content, current.element);
    for (const link of sidebar.querySelectorAll<HTMLAnchorElement>('.nav-link')) {
      if (link.dataset.page === page.id) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  };
  window.addEventListener('hashchange', () => {
    show();
    main.focus({ preventScroll: true });
  });
  show();

  state.status.onChange((status) => {
    const badge = document.getElementById('pair-badge');
    if (!badge || !status) return;
    const waiting = status.pairRequests.length + status.keyRequests.length + status.confirmations.length;
    badge.hidden = waiting === 0;
    badge.textContent = String(waiting);
    badge.setAttribute('aria-label', `${waiting} waiting`);
  });
  admin.activity().then(
    ({ entries }) => state.activity.set(entries),
    () => undefined,
  );
  followRelay({
    status: (status) => state.status.set(status),
    activity: (entries, skipped) => {
      // The feed left calls out: the relay's own list has them all.
      if (skipped > 0)
        admin.activity().then(
          ({ entries: all }) => state.activity.set(all),
          () => undefined,
        );
      else state.activity.set([...entries, ...state.activity.get()].slice(0, MAX_ACTIVITY));
    },
    journal: (event) => state.journal.set(event),
    connection: (connection) => state.connection.set(connection),
  });
}

whenSignedOut(signedOut);
start();
