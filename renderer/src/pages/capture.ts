import { admin, ApiError, type CaptureSettings } from '../admin-api.ts';
import type { Page } from '../app-state.ts';
import { emptyState, h, replaceChildren, secretInput, toast } from '../dom.ts';

function unavailable(): HTMLElement {
  return h(
    'section',
    { class: 'card', 'data-capture': 'unavailable' },
    emptyState(
      'capture',
      'Sheet capture is not available',
      "This relay runs without its own browser, so it cannot log in to Foundry to render sheets. Sheets still work: the relay asks the GM's open Foundry tab to render them.",
    ),
  );
}

function captureForm(settings: CaptureSettings): HTMLElement {
  const foundryUrl = h('input', {
    class: 'input',
    type: 'url',
    id: 'capture-url',
    name: 'foundryUrl',
    placeholder: 'http://localhost:30000',
    required: true,
    autocomplete: 'off',
  });
  foundryUrl.value = settings.foundryUrl;
  const username = h('input', {
    class: 'input',
    id: 'capture-user',
    name: 'username',
    required: true,
    autocomplete: 'off',
    placeholder: 'e.g. Capture',
  });
  username.value = settings.username;
  const password = secretInput(
    { id: 'capture-password', name: 'password' },
    settings.passwordSet,
    'Password of that user',
  );
  const save = h('button', { type: 'submit', class: 'button button-primary' }, 'Save');
  const test = h('button', { type: 'button', class: 'button button-secondary', id: 'capture-test' }, 'Test capture');
  const preview = h(
    'div',
    { class: 'capture-preview', 'aria-live': 'polite' },
    h('p', { class: 'muted small' }, 'Test capture logs in as this user and captures the first sheet it can see.'),
  );
  let shownImage: string | undefined;
  test.addEventListener('click', async () => {
    test.disabled = true;
    replaceChildren(
      preview,
      h('p', { class: 'muted small' }, h('span', { class: 'pulse' }), ' Logging in and capturing…'),
    );
    try {
      const image = await admin.testCapture();
      if (shownImage) URL.revokeObjectURL(shownImage);
      shownImage = URL.createObjectURL(image);
      replaceChildren(
        preview,
        h('img', { src: shownImage, alt: 'The sheet the relay captured', class: 'capture-image' }),
      );
    } catch (error) {
      replaceChildren(preview, h('p', { class: 'banner banner-error' }, (error as Error).message));
    } finally {
      test.disabled = false;
    }
  });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'capture-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'capture-title' }, 'Foundry login for capture'),
      h(
        'p',
        { class: 'muted' },
        'The relay logs in to your Foundry server as this user in a hidden browser to render sheets and keep the world online. Use a user of its own (an Assistant GM works best), not your own login.',
      ),
    ),
    h('div', { class: 'field' }, h('label', { for: 'capture-url' }, 'Foundry URL'), foundryUrl),
    h(
      'div',
      { class: 'field-grid' },
      h('div', { class: 'field' }, h('label', { for: 'capture-user' }, 'User'), username),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'capture-password' }, 'Password'),
        password,
        h('p', { class: 'hint' }, 'Stored encrypted and never shown again.'),
      ),
    ),
    h('div', { class: 'form-actions' }, test, save),
    preview,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      const saved = await admin.saveCapture({
        foundryUrl: foundryUrl.value.trim(),
        username: username.value.trim(),
        ...(password.value ? { password: password.value } : {}),
      });
      password.value = '';
      password.placeholder = saved.passwordSet ? '•••••••• (saved; type to replace)' : 'Password of that user';
      toast('Capture settings saved');
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      save.disabled = false;
    }
  });
  return form;
}

export const capturePage: Page = {
  id: 'capture',
  title: 'Capture',
  subtitle: 'How the relay renders sheets without your browser',
  icon: 'capture',
  render() {
    const element = h('div', { class: 'stack' }, h('div', { class: 'card skeleton', 'aria-busy': 'true' }));
    admin.capture().then(
      (settings) => replaceChildren(element, captureForm(settings)),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) replaceChildren(element, unavailable());
        else replaceChildren(element, h('p', { class: 'banner banner-error' }, (error as Error).message));
      },
    );
    return { element, dispose: () => undefined };
  },
};
