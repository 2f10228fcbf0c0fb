// The form that links a 2.x module's world: a key of scope world:link for that one world.
import { admin, type WorldLink } from '../admin-api.ts';
import { h, toast } from '../dom.ts';

export function worldLinkForm(onCreated: (link: WorldLink) => void, onCancel: () => void): HTMLFormElement {
  const clientId = h('input', {
    class: 'input input-mono',
    id: 'link-client-id',
    name: 'clientId',
    required: true,
    maxlength: 200,
    placeholder: 'foundry-…',
    autocomplete: 'off',
  });
  const foundryUrl = h('input', {
    class: 'input input-mono',
    id: 'link-foundry-url',
    name: 'foundryUrl',
    type: 'url',
    required: true,
    maxlength: 2000,
    placeholder: 'http://localhost:30000',
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
      h('label', { for: 'link-foundry-url' }, 'Foundry address'),
      foundryUrl,
      h(
        'p',
        { class: 'hint' },
        'The address you open Foundry at in the browser. The module runs in that page, and only that page may connect the world with this key.',
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
          foundryUrl: foundryUrl.value.trim(),
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
