// The form that makes an API key: its name, scopes, and the world and player it is bound to.
import { admin, type ApiKey, type NewKey, type RelayStatus } from '../admin-api.ts';
import { h, icon, toast } from '../dom.ts';
import { roleName } from '../format.ts';
import { groupScopes } from '../scopes.ts';

export interface KeysView {
  keys: ApiKey[];
  scopes: string[];
  defaultScopes: string[];
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
  const defaults = new Set(view.defaultScopes);
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
              { class: 'check' },
              h('input', {
                type: 'checkbox',
                name: 'scopes',
                value: scope,
                checked: !group.dangerous && defaults.has(scope),
              }),
              h('code', {}, scope),
              group.dangerous ? h('span', { class: 'danger-note' }, 'Runs any script as the GM') : null,
            ),
          ),
        ),
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
  const setAll = (predicate: (scope: string) => boolean) => {
    for (const box of form.querySelectorAll<HTMLInputElement>('input[name="scopes"]'))
      box.checked = predicate(box.value);
  };
  const preset = (label: string, predicate: (scope: string) => boolean) => {
    const button = h(
      'button',
      { type: 'button', class: 'button button-link', 'data-preset': label.toLowerCase() },
      label,
    );
    button.addEventListener('click', () => setAll(predicate));
    return button;
  };
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
      h(
        'div',
        { class: 'field-label-row' },
        h('span', { class: 'label', id: 'scopes-label' }, 'Scopes'),
        h(
          'span',
          { class: 'presets' },
          preset('Read-only', (scope) => view.defaultScopes.includes(scope)),
          preset('All but execute-js', (scope) => scope !== 'execute-js'),
          preset('None', () => false),
        ),
      ),
      scopeFieldsets(view),
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
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const scopes = data.getAll('scopes').map(String);
    if (scopes.length === 0) {
      toast('Tick at least one scope', 'error');
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
