// The form that makes an API key: its name, scopes, and the world and player it is bound to.
import { admin, type ApiKey, type NewKey, type RelayStatus } from '../admin-api.ts';
import { h, icon, replaceChildren, toast } from '../dom.ts';
import { roleName } from '../format.ts';
import { presetPicker } from '../key-presets.ts';
import { groupScopes, scopeWords } from '../scopes.ts';

export interface KeysView {
  keys: ApiKey[];
  scopes: string[];
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

/** "Ask before changes": for a tool the GM wants to watch (an AI assistant), each change waits for their approval. */
export function askFirstField(): HTMLElement {
  return h(
    'div',
    { class: 'field' },
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'checkbox', name: 'askBeforeChanges' }),
      h('span', {}, 'Ask me before each change'),
    ),
    h(
      'p',
      { class: 'hint' },
      'Each change the key asks of a world waits on the Status page (and a desktop notification) until you approve it. Reads go through at once.',
    ),
  );
}

export function newKeyForm(
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
    askFirstField(),
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
    const askBeforeChanges = data.get('askBeforeChanges') === 'on';
    submit.disabled = true;
    try {
      onCreated(
        await admin.createKey({
          name: String(data.get('name') ?? '').trim(),
          scopes,
          ...(userId ? { userId } : {}),
          ...(worldIds.length > 0 ? { worldIds } : {}),
          ...(askBeforeChanges ? { askBeforeChanges } : {}),
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
