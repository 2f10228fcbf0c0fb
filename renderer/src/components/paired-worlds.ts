// The Status page's "Paired worlds" card: every world the relay remembers, its Foundry address, and forgetting it.
import { admin, type KnownWorld, type RelayStatus } from '../admin-api.ts';
import type { AppState, PageView } from '../app-state.ts';
import { confirmDialog, h, icon, replaceChildren, toast, toastRevoked } from '../dom.ts';
import { relativeTime, systemLine } from '../format.ts';
import { keeperBlock, tickKeeperLines } from './world-keeper.ts';

const SEEN_REFRESH_MS = 30_000;

let nextId = 0;

function worldName(world: KnownWorld): string {
  return world.worldTitle || world.worldId || world.clientId;
}

function lastSeenText(lastSeen: string | undefined): string {
  return lastSeen ? `Last seen ${relativeTime(lastSeen)}` : 'Not connected yet';
}

function presence(world: KnownWorld): HTMLElement {
  if (world.connected) return h('span', { class: 'pill pill-success' }, h('span', { class: 'dot' }), 'Connected');
  return h('span', { class: 'pill pill-muted', 'data-last-seen': world.lastSeen ?? '' }, lastSeenText(world.lastSeen));
}

/** What changes the list without an action on this card: a world connecting, leaving or being paired, a keeper moving. */
function worldsSignature(status: RelayStatus | undefined): string {
  if (!status) return '';
  const connected = status.worlds.map((world) => `${world.clientId}:${world.worldTitle ?? ''}`).sort();
  const keeping = status.keeping.map(({ clientId, keeper }) => `${clientId}:${keeper.enabled}:${keeper.since}`);
  return [...connected, '|', ...status.pairRequests.map((request) => request.code).sort(), '|', ...keeping].join(',');
}

/** The world whose keeper form the address asks to open: #status/keeper/<clientId> (the tray's switch sends it). */
function keeperAsked(): string | undefined {
  const match = /^#\/?status\/keeper\/([^/]+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

interface RowHandlers {
  /** The world changed on the relay: draw the list again. */
  changed(): Promise<void>;
  /** An address or keeper form opened or closed; the list is not redrawn under an open one. */
  editing(open: boolean): void;
}

function worldRow(world: KnownWorld, handlers: RowHandlers): HTMLElement {
  const name = worldName(world);
  const errorId = `known-world-error-${(nextId += 1)}`;
  const error = h('p', { class: 'field-error', id: errorId, role: 'alert', hidden: true });
  const showError = (message: string | undefined) => {
    error.textContent = message ?? '';
    error.hidden = message === undefined;
  };
  const address = h('div', { class: 'known-world-address-value' });

  const showAddress = () => {
    const edit = h(
      'button',
      {
        type: 'button',
        class: 'button button-link',
        'data-action': 'edit-address',
        'aria-label': `Edit the Foundry address of ${name}`,
      },
      world.foundryUrl ? 'Edit' : 'Set address',
    );
    edit.addEventListener('click', showForm);
    replaceChildren(
      address,
      world.foundryUrl
        ? h('code', { class: 'known-world-url' }, world.foundryUrl)
        : h('span', { class: 'muted' }, 'Not set'),
      edit,
    );
  };

  const closeForm = () => {
    showError(undefined);
    showAddress();
    handlers.editing(false);
  };

  const showForm = () => {
    handlers.editing(true);
    const input = h('input', {
      class: 'input input-mono',
      type: 'url',
      name: 'foundryUrl',
      placeholder: 'http://localhost:30000',
      autocomplete: 'off',
      'aria-label': `Foundry address of ${name}`,
      'aria-describedby': errorId,
    });
    input.value = world.foundryUrl ?? '';
    const save = h('button', { type: 'submit', class: 'button button-primary button-small' }, 'Save');
    const cancel = h('button', { type: 'button', class: 'button button-secondary button-small' }, 'Cancel');
    cancel.addEventListener('click', closeForm);
    // The relay's message says what is wrong with the address, so the browser's own check stays out of the way.
    const form = h('form', { class: 'known-world-form', novalidate: true }, input, save, cancel);
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') closeForm();
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const typed = input.value.trim();
      save.disabled = cancel.disabled = true;
      try {
        world = await admin.setWorldFoundryUrl(world.clientId, typed === '' ? null : typed);
        toast(typed === '' ? `${name} has no Foundry address now` : `Foundry address of ${name} saved`);
        await handlers.changed();
        closeForm();
      } catch (failure) {
        save.disabled = cancel.disabled = false;
        input.setAttribute('aria-invalid', 'true');
        showError((failure as Error).message);
        input.focus();
      }
    });
    replaceChildren(address, form);
    input.focus();
  };

  const forget = h(
    'button',
    {
      type: 'button',
      class: 'button button-danger-outline button-small',
      'data-action': 'forget',
      'aria-label': `Forget ${name}`,
    },
    'Forget',
  );
  forget.addEventListener('click', async () => {
    const confirmed = await confirmDialog({
      title: `Forget ${name}?`,
      message:
        'The relay revokes its connection tokens and disconnects it; the module must pair again to bring it back.',
      confirm: 'Forget world',
      danger: true,
    });
    if (!confirmed) return;
    forget.disabled = true;
    try {
      toastRevoked(`${name} forgotten: pair it again to bring it back`, await admin.forgetWorld(world.clientId));
      await handlers.changed();
    } catch (failure) {
      forget.disabled = false;
      showError((failure as Error).message);
    }
  });

  showAddress();
  return h(
    'li',
    { class: 'known-world', 'data-client-id': world.clientId },
    h('div', { class: 'known-world-icon', 'aria-hidden': 'true' }, icon('world')),
    h(
      'div',
      { class: 'known-world-main' },
      h('div', { class: 'known-world-head' }, h('strong', { class: 'known-world-title' }, name), presence(world)),
      h(
        'span',
        { class: 'muted small known-world-meta' },
        systemLine(world),
        ' · client id ',
        h('code', {}, world.clientId),
      ),
      h('div', { class: 'known-world-address' }, h('span', { class: 'known-world-label' }, 'Foundry address'), address),
      world.keeper ? keeperBlock(world, name, handlers, keeperAsked() === world.clientId) : null,
      error,
    ),
    h('div', { class: 'known-world-actions' }, forget),
  );
}

/** The card, kept current: fetched when shown, after each change, and when a world connects, leaves or pairs. */
export function pairedWorldsSection(state: AppState): PageView {
  const list = h('ul', { class: 'known-worlds' });
  const problem = h('p', { class: 'banner banner-error', role: 'alert', hidden: true });
  const element = h(
    'section',
    { class: 'card', 'aria-labelledby': 'paired-worlds-title', hidden: true },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'paired-worlds-title' }, 'Paired worlds'),
      h(
        'p',
        { class: 'muted' },
        "Every world paired with this relay, connected or not. Keep online lets the relay hold a world when no GM's browser does: it logs a Foundry user of its own in offscreen, and steps back the moment you open Foundry. A GM session or keeper the relay opens for a world may load only its Foundry address.",
      ),
    ),
    problem,
    list,
  );
  let worlds: KnownWorld[] = [];
  let formsOpen = 0;
  let latestRequest = 0;

  const draw = () => {
    if (formsOpen > 0) return;
    replaceChildren(list, ...worlds.map((world) => worldRow(world, handlers)));
    element.hidden = worlds.length === 0 && problem.hidden;
    const asked = keeperAsked();
    if (asked) list.querySelector(`[data-client-id="${CSS.escape(asked)}"]`)?.scrollIntoView({ block: 'center' });
  };
  const refresh = async () => {
    const request = (latestRequest += 1);
    try {
      const answer = await admin.knownWorlds();
      if (request !== latestRequest) return;
      worlds = answer.worlds;
      problem.hidden = true;
    } catch (failure) {
      if (request !== latestRequest) return;
      problem.textContent = `Could not list the paired worlds: ${(failure as Error).message}`;
      problem.hidden = false;
    }
    draw();
  };
  const handlers: RowHandlers = {
    changed: refresh,
    editing: (open) => {
      formsOpen = Math.max(0, formsOpen + (open ? 1 : -1));
      if (formsOpen === 0) draw();
    },
  };

  let signature: string | undefined;
  const stop = state.status.follow((status) => {
    const next = worldsSignature(status);
    if (next === signature) return;
    signature = next;
    void refresh();
  });
  const tick = setInterval(() => {
    for (const node of list.querySelectorAll<HTMLElement>('[data-last-seen]'))
      node.textContent = lastSeenText(node.dataset.lastSeen || undefined);
  }, SEEN_REFRESH_MS);
  const countdown = setInterval(() => {
    const keepers = new Map(worlds.flatMap((world) => (world.keeper ? [[world.clientId, world.keeper] as const] : [])));
    tickKeeperLines(list, keepers);
  }, 1000);
  return {
    element,
    dispose: () => {
      stop();
      clearInterval(tick);
      clearInterval(countdown);
    },
  };
}
