import { admin, type ApiKey, type NewKey, type RelayStatus } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { confirmDialog, emptyState, h, icon, replaceChildren, toast, toastRevoked, toggle } from '../dom.ts';
import { relativeTime, shortDate } from '../format.ts';
import { WORLD_LINK_SCOPE } from '../scopes.ts';
import { overlayLinksSection } from '../components/overlay-links.ts';
import { keyRequestsSection } from '../components/key-requests.ts';
import { revealPanel, linkRevealPanel } from '../components/key-reveal.ts';
import { worldLinkForm } from '../components/world-link-form.ts';
import { newKeyForm, type KeysView } from '../components/key-form.ts';

function bindingText(key: ApiKey, status: RelayStatus | undefined): string {
  const parts: string[] = [];
  if (key.userId) {
    const player = status?.worlds.flatMap((world) => world.players).find((candidate) => candidate.id === key.userId);
    parts.push(`Acts as ${player?.name ?? key.userId}`);
  }
  if (key.scopes.includes(WORLD_LINK_SCOPE)) {
    const page = key.origin ? ` from ${key.origin}` : '';
    return `Links the 2.x module of ${key.worldIds?.join(', ') ?? 'no world'}${page}`;
  }
  if (key.worldIds && key.worldIds.length > 0) {
    const titles = key.worldIds.map((id) => status?.worlds.find((world) => world.clientId === id)?.worldTitle ?? id);
    parts.push(`Only ${titles.join(', ')}`);
  }
  return parts.join(' · ') || 'Any user, every world';
}

/** Whether the key's changes wait for the GM; a 2.x module's link key changes nothing itself. */
function askFirstSwitch(key: ApiKey): HTMLElement | null {
  if (key.scopes.includes(WORLD_LINK_SCOPE)) return null;
  return toggle(`ask-${key.id}`, 'Ask me first', key.askBeforeChanges === true, async (on) => {
    await admin.setAskBeforeChanges(key.id, on);
    toast(
      on
        ? `${key.name}: each change waits for your approval on the Status page`
        : `${key.name}: changes go through without asking`,
    );
  });
}

function scopeChips(scopes: string[]): HTMLElement {
  const shown = scopes.slice(0, 3);
  return h(
    'span',
    { class: 'chips', title: scopes.join(', ') },
    ...shown.map((scope) => h('span', { class: `chip${scope === 'execute-js' ? ' chip-danger' : ''}` }, scope)),
    scopes.length > shown.length ? h('span', { class: 'chip chip-more' }, `+${scopes.length - shown.length}`) : null,
  );
}

export const keysPage: Page = {
  id: 'keys',
  title: 'API keys',
  subtitle: 'Keys your tools use to call the relay',
  icon: 'keys',
  render(state: AppState) {
    const top = h('div', { class: 'stack' });
    const list = h('div', {});
    const newButton = h(
      'button',
      { type: 'button', class: 'button button-primary', id: 'new-key' },
      icon('plus'),
      'New API key',
    );
    const linkButton = h(
      'button',
      { type: 'button', class: 'button button-secondary', id: 'connect-2x-module' },
      'Connect a 2.x module',
    );
    // Tools' key requests show here too: a request's approvalUrl opens this page.
    const keyRequests = keyRequestsSection();
    const overlayLinks = overlayLinksSection(state);
    const element = h('div', { class: 'stack' }, keyRequests.element, top, list, overlayLinks.element);
    let view: KeysView = { keys: [], scopes: [] };
    let drawnKeys: string | undefined;

    const showReveal = (key: NewKey, verb: 'created' | 'rotated') => {
      replaceChildren(
        top,
        revealPanel(key, verb, () => replaceChildren(top)),
      );
      top.querySelector('input')?.select();
      void reload();
    };
    const rotate = async (key: ApiKey) => {
      const sure = await confirmDialog({
        title: `Rotate "${key.name}"?`,
        message: 'A new key replaces this one. The old key stops working at once; update the tool that uses it.',
        confirm: 'Rotate key',
      });
      if (!sure) return;
      try {
        showReveal(await admin.rotateKey(key.id), 'rotated');
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const revoke = async (key: ApiKey) => {
      const sure = await confirmDialog({
        title: `Revoke "${key.name}"?`,
        message: 'Tools using this key are refused from now on. This cannot be undone.',
        confirm: 'Revoke key',
        danger: true,
      });
      if (!sure) return;
      try {
        toastRevoked(`Key "${key.name}" revoked`, await admin.revokeKey(key.id));
        await reload();
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const row = (key: ApiKey) => {
      const rotateButton = h(
        'button',
        { type: 'button', class: 'button button-secondary button-small', 'aria-label': `Rotate ${key.name}` },
        'Rotate',
      );
      const revokeButton = h(
        'button',
        { type: 'button', class: 'button button-danger-outline button-small', 'aria-label': `Revoke ${key.name}` },
        'Revoke',
      );
      rotateButton.addEventListener('click', () => void rotate(key));
      revokeButton.addEventListener('click', () => void revoke(key));
      return h(
        'tr',
        { 'data-key-id': key.id },
        h(
          'td',
          {},
          h('strong', {}, key.name),
          h(
            'span',
            { class: 'muted small block' },
            h('code', {}, `${key.prefix}…`),
            ' · ',
            bindingText(key, state.status.get()),
          ),
          h('div', { class: 'key-ask' }, askFirstSwitch(key)),
        ),
        h('td', {}, scopeChips(key.scopes)),
        h(
          'td',
          { class: 'nowrap' },
          relativeTime(key.lastUsedAt),
          h('span', { class: 'muted small block' }, `Created ${shortDate(key.createdAt)}`),
        ),
        h('td', { class: 'actions' }, rotateButton, revokeButton),
      );
    };
    const drawList = () => {
      if (view.keys.length === 0) {
        replaceChildren(
          list,
          h(
            'div',
            { class: 'card' },
            emptyState(
              'keys',
              'No API keys yet',
              'Create a key for each tool (a Stream Deck, a chat bot, a script) so you can revoke one without touching the others.',
            ),
          ),
        );
        return;
      }
      replaceChildren(
        list,
        h(
          'div',
          { class: 'card card-flush' },
          h(
            'table',
            { class: 'table', 'aria-label': 'API keys' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, 'Key'),
                h('th', { scope: 'col' }, 'Scopes'),
                h('th', { scope: 'col' }, 'Last used'),
                h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
              ),
            ),
            h('tbody', {}, ...view.keys.map(row)),
          ),
        ),
      );
    };
    const reload = async () => {
      try {
        const [{ keys }, { scopes }] = await Promise.all([
          admin.keys(),
          view.scopes.length ? Promise.resolve(view) : admin.scopes(),
        ]);
        view = { keys: [...keys].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), scopes };
        // Drawn again only when a key changed: a row rebuilt for nothing under the GM's pointer loses the click.
        const shown = JSON.stringify(view.keys.map((key) => [key, bindingText(key, state.status.get())]));
        if (shown === drawnKeys) return;
        drawnKeys = shown;
        drawList();
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    newButton.addEventListener('click', () => {
      replaceChildren(
        top,
        newKeyForm(
          view,
          state.status.get(),
          (key) => showReveal(key, 'created'),
          () => replaceChildren(top),
        ),
      );
    });
    linkButton.addEventListener('click', () => {
      replaceChildren(
        top,
        worldLinkForm(
          (link) => {
            replaceChildren(
              top,
              linkRevealPanel(link, () => replaceChildren(top)),
            );
            void reload();
          },
          () => replaceChildren(top),
        ),
      );
    });
    // "Last used" changes with every call; the activity feed says when.
    let pending: ReturnType<typeof setTimeout> | undefined;
    const stopActivity = state.activity.onChange(() => {
      clearTimeout(pending);
      pending = setTimeout(() => void reload(), 500);
    });
    let waitingCount = 0;
    const stopStatus = state.status.follow((status) => {
      keyRequests.update(status);
      // An approved request made a key: list it.
      const waiting = status?.keyRequests.length ?? 0;
      if (waiting < waitingCount) void reload();
      waitingCount = waiting;
    });
    const tick = setInterval(() => keyRequests.tick(), 1000);
    void reload();
    return {
      element,
      actions: h('div', { class: 'form-actions' }, linkButton, newButton),
      dispose: () => {
        overlayLinks.dispose();
        stopActivity();
        stopStatus();
        clearInterval(tick);
        clearTimeout(pending);
      },
    };
  },
};
