// The overlay links as a table, shared by the Overlays page (with New URL) and the API keys page.
import { admin, type KnownWorld, type OverlayLink, type RelayStatus } from '../admin-api.ts';
import type { AppState } from '../app-state.ts';
import { confirmDialog, h, icon, replaceChildren, toast, toastRevoked } from '../dom.ts';
import { relativeTime, shortDate } from '../format.ts';
import { OVERLAYS } from '../../../contracts/overlays.ts';

export interface OverlayLinkActions {
  /** Offered on the Overlays page only, where the new URL can be shown with its preview. */
  rotate?: (link: OverlayLink) => void;
  revoke: (link: OverlayLink) => void;
}

/** Names for a link's world and player, from the connected worlds first, then the paired ones. */
export function worldTitle(clientId: string, status: RelayStatus | undefined, known: KnownWorld[] = []): string {
  const world =
    status?.worlds.find((candidate) => candidate.clientId === clientId) ??
    known.find((candidate) => candidate.clientId === clientId);
  return world?.worldTitle || clientId;
}

export function viewerName(link: Pick<OverlayLink, 'clientId' | 'userId'>, status: RelayStatus | undefined): string {
  if (!link.userId) return 'As the table sees it';
  const world = status?.worlds.find((candidate) => candidate.clientId === link.clientId);
  const player = world?.players.find((candidate) => candidate.id === link.userId);
  return `As ${player?.name ?? link.userId}`;
}

function actionButtons(link: OverlayLink, actions: OverlayLinkActions): HTMLElement {
  const revoke = h(
    'button',
    {
      type: 'button',
      class: 'button button-danger-outline button-small',
      'aria-label': `Revoke ${link.name}`,
      'data-action': 'revoke',
    },
    'Revoke',
  );
  revoke.addEventListener('click', () => actions.revoke(link));
  const rotate = actions.rotate
    ? h(
        'button',
        {
          type: 'button',
          class: 'button button-secondary button-small',
          'aria-label': `New URL for ${link.name}`,
          'data-action': 'rotate',
        },
        'New URL',
      )
    : null;
  rotate?.addEventListener('click', () => actions.rotate?.(link));
  return h('td', { class: 'actions' }, rotate, revoke);
}

function row(
  link: OverlayLink,
  status: RelayStatus | undefined,
  known: KnownWorld[],
  actions: OverlayLinkActions,
): HTMLElement {
  const overlay = OVERLAYS[link.overlay];
  return h(
    'tr',
    { 'data-overlay-link-id': link.id },
    h(
      'td',
      {},
      h('span', { class: 'overlay-name' }, icon(link.overlay), h('strong', {}, link.name)),
      h(
        'span',
        { class: 'muted small block' },
        overlay?.title ?? link.overlay,
        link.hpBars ? ' with HP bars' : '',
        ' · ',
        h('code', {}, `${link.prefix}…`),
      ),
    ),
    h(
      'td',
      {},
      worldTitle(link.clientId, status, known),
      h('span', { class: 'muted small block' }, viewerName(link, status)),
    ),
    h(
      'td',
      { class: 'nowrap' },
      relativeTime(link.lastUsedAt),
      h('span', { class: 'muted small block' }, `Created ${shortDate(link.createdAt)}`),
    ),
    actionButtons(link, actions),
  );
}

export function overlayLinksTable(
  links: OverlayLink[],
  status: RelayStatus | undefined,
  known: KnownWorld[],
  actions: OverlayLinkActions,
): HTMLElement {
  return h(
    'div',
    { class: 'card card-flush' },
    h(
      'table',
      { class: 'table overlay-links-table', 'aria-label': 'Overlay links' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Overlay link'),
          h('th', { scope: 'col' }, 'World'),
          h('th', { scope: 'col' }, 'Last used'),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...links.map((link) => row(link, status, known, actions))),
    ),
  );
}

/** Asks, then revokes; resolves true when the link is gone. */
export async function revokeOverlayLink(link: OverlayLink): Promise<boolean> {
  const sure = await confirmDialog({
    title: `Revoke "${link.name}"?`,
    message: 'The overlay goes blank in OBS at once and its URL is refused from now on. This cannot be undone.',
    confirm: 'Revoke link',
    danger: true,
  });
  if (!sure) return false;
  try {
    toastRevoked(`Overlay link "${link.name}" revoked`, await admin.revokeOverlayLink(link.id));
    return true;
  } catch (error) {
    toast((error as Error).message, 'error');
    return false;
  }
}

/** Newest first, as the keys are listed. */
export function newestFirst(links: OverlayLink[]): OverlayLink[] {
  return [...links].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The API keys page's "Overlay links" section: what each link opens, and Revoke; shown once a link exists. */
export function overlayLinksSection(state: AppState): { element: HTMLElement; dispose(): void } {
  const table = h('div', {});
  const element = h(
    'section',
    { class: 'stack overlay-list', 'aria-labelledby': 'overlay-links-title', hidden: true },
    h(
      'div',
      { class: 'section-title' },
      h('h2', { id: 'overlay-links-title' }, 'Overlay links'),
      h(
        'p',
        { class: 'muted small' },
        'Read-only links in OBS URLs, made on the ',
        h('a', { href: '#overlays' }, 'Overlays page'),
        '.',
      ),
    ),
    table,
  );
  let known: KnownWorld[] = [];
  const reload = async () => {
    try {
      const [{ links }, { worlds }] = await Promise.all([admin.overlayLinks(), admin.knownWorlds()]);
      known = worlds;
      element.hidden = links.length === 0;
      replaceChildren(
        table,
        links.length === 0
          ? null
          : overlayLinksTable(newestFirst(links), state.status.get(), known, {
              revoke: async (link) => {
                if (await revokeOverlayLink(link)) await reload();
              },
            }),
      );
    } catch (error) {
      toast((error as Error).message, 'error');
    }
  };
  // "Last used" changes with every overlay that loads; the activity feed says when.
  let pending: ReturnType<typeof setTimeout> | undefined;
  const stopActivity = state.activity.onChange(() => {
    clearTimeout(pending);
    pending = setTimeout(() => void reload(), 500);
  });
  void reload();
  return {
    element,
    dispose: () => {
      stopActivity();
      clearTimeout(pending);
    },
  };
}
