import { admin, type ApiKey, type NewKey, type RelayStatus, type WorldLink } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { confirmDialog, copyButton, emptyState, h, icon, replaceChildren, toast, toastRevoked } from '../dom.ts';
import { relativeTime, roleName, shortDate } from '../format.ts';
import { presetPicker } from '../key-presets.ts';
import { groupScopes, scopeWords, WORLD_LINK_SCOPE } from '../scopes.ts';
import { overlayLinksSection } from './overlay-links.ts';
import { keyRequestsSection } from './key-requests.ts';

interface KeysView {
  keys: ApiKey[];
  scopes: string[];
}

function revealPanel(created: NewKey, verb: 'created' | 'rotated', onDone: () => void): HTMLElement {
  const field = h('input', {
    class: 'input input-mono',
    readonly: true,
    'aria-label': `The new key for ${created.name}`,
    id: 'revealed-key',
  });
  field.value = created.key;
  const done = h('button', { type: 'button', class: 'button button-secondary' }, 'Done');
  done.addEventListener('click', onDone);
  return h(
    'section',
    { class: 'card card-success reveal', role: 'region', 'aria-labelledby': 'reveal-title' },
    h(
      'h2',
      { id: 'reveal-title' },
      icon('check'),
      verb === 'created' ? `Key "${created.name}" created` : `Key "${created.name}" rotated`,
    ),
    h(
      'p',
      {},
      h('strong', {}, 'Copy it now: it is shown only this once. '),
      'The relay keeps only a hash of it.',
      verb === 'rotated' ? ' The old key stopped working.' : '',
    ),
    h(
      'div',
      { class: 'reveal-row' },
      field,
      copyButton(() => created.key, 'Copy key', { primary: true }),
      done,
    ),
  );
}

function copyRow(label: string, id: string, value: string, copyLabel: string): HTMLElement {
  const field = h('input', { class: 'input input-mono', readonly: true, id });
  field.value = value;
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h(
      'div',
      { class: 'reveal-row' },
      field,
      copyButton(() => value, copyLabel),
    ),
  );
}

function linkRevealPanel(link: WorldLink, onDone: () => void): HTMLElement {
  const done = h('button', { type: 'button', class: 'button button-secondary' }, 'Done');
  done.addEventListener('click', onDone);
  return h(
    'section',
    { class: 'card card-success reveal', role: 'region', 'aria-labelledby': 'link-reveal-title' },
    h('h2', { id: 'link-reveal-title' }, icon('check'), `2.x module key "${link.name}" created`),
    h(
      'p',
      {},
      h('strong', {}, 'Copy the key now: it is shown only this once. '),
      'In Foundry, as the GM: Game Settings → Configure Settings → Foundry REST API. Enter these two values, save, and reload the world.',
    ),
    copyRow('WebSocket relay URL', 'link-relay-url', link.settings['foundry-rest-api.wsRelayUrl'], 'Copy URL'),
    copyRow('API key', 'revealed-link-key', link.settings['foundry-rest-api.apiKey'], 'Copy key'),
    link.lanRelayUrls.length > 0
      ? h(
          'p',
          { class: 'muted small' },
          'From another computer: ',
          ...link.lanRelayUrls.map((url) => h('code', {}, url, ' ')),
        )
      : null,
    h(
      'p',
      { class: 'hint' },
      'The key links only this world and can call no API route. Every player of the world can read it in the module settings: revoke it here if the world moves to the 3.x module.',
    ),
    h('div', { class: 'form-actions' }, done),
  );
}

function linkForm(onCreated: (link: WorldLink) => void, onCancel: () => void): HTMLFormElement {
  const clientId = h('input', {
    class: 'input input-mono',
    id: 'link-client-id',
    name: 'clientId',
    required: true,
    maxlength: 200,
    placeholder: 'foundry-…',
    autocomplete: 'off',
  });
  const name = h('input', {
    class: 'input',
    id: 'link-name',
    name: 'name',
    maxlength: 100,
    placeholder: 'e.g. The Keep (2.x module)',
    autocomplete: 'off',
  });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Create link key');
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, 'Cancel');
  cancel.addEventListener('click', onCancel);
  const form = h(
    'form',
    { class: 'card key-form link-form', 'aria-labelledby': 'link-title' },
    h('h2', { id: 'link-title' }, 'Connect a 2.x module'),
    h(
      'p',
      { class: 'muted' },
      'Modules before 3.0 cannot pair: they connect with an API key in the URL. This key links one world and grants nothing else. Modules 3.0 and later pair instead (Status page).',
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'link-client-id' }, 'Client id'),
      clientId,
      h(
        'p',
        { class: 'hint' },
        'The 2.x module connects as foundry- followed by the Foundry user id of the GM whose browser runs it. In that browser, the console command game.user.id shows it.',
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'link-name' }, 'Name'),
      name,
      h('p', { class: 'hint' }, 'Optional: how the key is listed.'),
    ),
    h('div', { class: 'form-actions' }, cancel, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      onCreated(
        await admin.linkWorld({
          clientId: clientId.value.trim(),
          ...(name.value.trim() ? { name: name.value.trim() } : {}),
        }),
      );
    } catch (error) {
      toast((error as Error).message, 'error');
      submit.disabled = false;
    }
  });
  queueMicrotask(() => clientId.focus());
  return form;
}

function playerOptions(status: RelayStatus | undefined): HTMLSelectElement {
  const select = h(
    'select',
    { class: 'input', id: 'key-user', name: 'userId' },
    h('option', { value: '' }, 'Nobody: each call may name a user'),
  );
  for (const world of status?.worlds ?? []) {
    const group = h('optgroup', { label: world.worldTitle || world.clientId });
    for (const player of world.players)
      group.append(h('option', { value: player.id }, `${player.name} · ${roleName(player.role)}`));
    if (world.players.length > 0) select.append(group);
  }
  return select;
}

function worldChoices(status: RelayStatus | undefined): HTMLElement {
  const worlds = status?.worlds ?? [];
  if (worlds.length === 0)
    return h('p', { class: 'muted small' }, 'No world is connected; the key will reach every world you pair.');
  return h(
    'div',
    { class: 'choices' },
    ...worlds.map((world) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', name: 'worldIds', value: world.clientId }),
        h('span', {}, world.worldTitle || world.clientId),
      ),
    ),
  );
}

function scopeFieldsets(view: KeysView): HTMLElement {
  return h(
    'div',
    { class: 'scope-groups' },
    ...groupScopes(view.scopes)
      .filter((group) => !group.worldLink)
      .map((group) =>
        h(
          'fieldset',
          { class: `scope-group${group.dangerous ? ' scope-group-danger' : ''}` },
          h('legend', {}, group.dangerous ? icon('warning') : null, group.title),
          ...group.scopes.map((scope) =>
            h(
              'label',
              { class: 'check scope-check' },
              h('input', { type: 'checkbox', name: 'scopes', value: scope }),
              h('span', { class: 'scope-words' }, scopeWords(scope)),
              h('code', {}, scope),
            ),
          ),
        ),
      ),
  );
}

/** What the ticked scopes let the key do, in words with each scope's name, before the key is made. */
function scopeSummary(summary: HTMLElement, ticked: string[]): void {
  if (ticked.length === 0) {
    replaceChildren(
      summary,
      h('p', { class: 'muted' }, 'Nothing yet: pick what the key is for, or choose its scopes one by one.'),
    );
    return;
  }
  replaceChildren(
    summary,
    h(
      'p',
      { class: 'scope-summary-title' },
      `The key may (${ticked.length} ${ticked.length === 1 ? 'scope' : 'scopes'}):`,
    ),
    h(
      'ul',
      { class: 'scope-summary-list' },
      ...ticked.map((scope) =>
        h(
          'li',
          { class: scope === 'execute-js' ? 'scope-summary-danger' : undefined },
          scope === 'execute-js' ? icon('warning') : null,
          h('span', {}, scopeWords(scope)),
          h('code', {}, scope),
        ),
      ),
    ),
  );
}

function createForm(
  view: KeysView,
  status: RelayStatus | undefined,
  onCreated: (key: NewKey) => void,
  onCancel: () => void,
): HTMLFormElement {
  const name = h('input', {
    class: 'input',
    id: 'key-name',
    name: 'name',
    required: true,
    maxlength: 100,
    placeholder: 'e.g. Stream Deck',
    autocomplete: 'off',
  });
  const boxes = () => [...form.querySelectorAll<HTMLInputElement>('input[name="scopes"]')];
  const summary = h('div', { class: 'scope-summary', id: 'key-scope-summary', 'aria-live': 'polite' });
  const showTicked = () =>
    scopeSummary(
      summary,
      boxes()
        .filter((box) => box.checked)
        .map((box) => box.value),
    );
  const presets = presetPicker(boxes, showTicked);
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Create key');
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, 'Cancel');
  cancel.addEventListener('click', onCancel);
  const form = h(
    'form',
    { class: 'card key-form', 'aria-labelledby': 'new-key-title' },
    h('h2', { id: 'new-key-title' }, 'New API key'),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'key-name' }, 'Name'),
      name,
      h('p', { class: 'hint' }, 'What the key is for, so you recognise it in the list and the activity log.'),
    ),
    h(
      'div',
      { class: 'field' },
      h('span', { class: 'label', id: 'scopes-label' }, 'What will use this key?'),
      presets.element,
      summary,
      h(
        'details',
        { class: 'scope-details', id: 'choose-scopes' },
        h('summary', {}, 'Choose scopes one by one'),
        scopeFieldsets(view),
      ),
    ),
    h(
      'div',
      { class: 'field-grid' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'key-user' }, 'Act as tabletop user'),
        playerOptions(status),
        h('p', { class: 'hint' }, 'Every call made with the key then acts as this player, with their permissions.'),
      ),
      h(
        'div',
        { class: 'field' },
        h('span', { class: 'label' }, 'Worlds'),
        worldChoices(status),
        h('p', { class: 'hint' }, 'Tick none to let the key reach every world.'),
      ),
    ),
    h('div', { class: 'form-actions' }, cancel, submit),
  );
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLInputElement).name !== 'scopes') return;
    presets.sync();
    showTicked();
  });
  presets.sync();
  showTicked();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const scopes = data.getAll('scopes').map(String);
    if (scopes.length === 0) {
      toast('Pick what the key is for, or tick at least one scope', 'error');
      return;
    }
    const userId = String(data.get('userId') ?? '');
    const worldIds = data.getAll('worldIds').map(String);
    submit.disabled = true;
    try {
      onCreated(
        await admin.createKey({
          name: String(data.get('name') ?? '').trim(),
          scopes,
          ...(userId ? { userId } : {}),
          ...(worldIds.length > 0 ? { worldIds } : {}),
        }),
      );
    } catch (error) {
      toast((error as Error).message, 'error');
      submit.disabled = false;
    }
  });
  queueMicrotask(() => name.focus());
  return form;
}

function bindingText(key: ApiKey, status: RelayStatus | undefined): string {
  const parts: string[] = [];
  if (key.userId) {
    const player = status?.worlds.flatMap((world) => world.players).find((candidate) => candidate.id === key.userId);
    parts.push(`Acts as ${player?.name ?? key.userId}`);
  }
  if (key.scopes.includes(WORLD_LINK_SCOPE)) return `Links the 2.x module of ${key.worldIds?.join(', ') ?? 'no world'}`;
  if (key.worldIds && key.worldIds.length > 0) {
    const titles = key.worldIds.map((id) => status?.worlds.find((world) => world.clientId === id)?.worldTitle ?? id);
    parts.push(`Only ${titles.join(', ')}`);
  }
  return parts.join(' · ') || 'Any user, every world';
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
        drawList();
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    newButton.addEventListener('click', () => {
      replaceChildren(
        top,
        createForm(
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
        linkForm(
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
