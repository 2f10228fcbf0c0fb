// The port setting: a move of the relay to another port, and the settings UI following it there.
import { admin, type RelayStatus } from '../admin-api.ts';
import type { AppState } from '../app-state.ts';
import { h, icon, replaceChildren, toast } from '../dom.ts';
import { worldSocketUrl } from '../../../contracts/world-protocol.ts';

/** This page at the same path on another port: the session cookie goes along, as cookies do not depend on the port. */
function samePageOnPort(port: number): string {
  const next = new URL(location.href);
  next.port = String(port);
  return next.href;
}

/** Moves the relay, then this page after it: the old port takes no new connection once the relay has moved. */
async function movePort(port: number): Promise<void> {
  await admin.updateSettings({ port });
  toast(`The relay moved to port ${port}`);
  location.assign(samePageOnPort(port));
}

function drawPortState(target: HTMLElement, input: HTMLInputElement, status: RelayStatus | undefined): void {
  if (!status) return;
  if (document.activeElement !== input) input.value = String(status.port);
  const worldUrl = worldSocketUrl(status.url);
  const moduleHint = h('p', { class: 'hint' }, "The Foundry module's relay URL must match: ", h('code', {}, worldUrl));
  if (!status.portFallback) {
    replaceChildren(target, moduleHint);
    return;
  }
  const { wanted } = status.portFallback;
  const keep = h(
    'button',
    { type: 'button', class: 'button button-primary button-small', id: 'keep-port' },
    `Keep port ${status.port}`,
  );
  const retry = h(
    'button',
    { type: 'button', class: 'button button-secondary button-small', id: 'retry-port' },
    `Try port ${wanted} again`,
  );
  keep.addEventListener(
    'click',
    () =>
      void admin.updateSettings({ port: status.port }).then(
        () => toast(`Port ${status.port} kept`),
        (error: Error) => toast(error.message, 'error'),
      ),
  );
  retry.addEventListener('click', () => void movePort(wanted).catch((error: Error) => toast(error.message, 'error')));
  replaceChildren(
    target,
    h(
      'div',
      { class: 'banner banner-warning', role: 'note', id: 'port-fallback' },
      icon('warning'),
      h(
        'div',
        { class: 'port-fallback-body' },
        h(
          'span',
          {},
          `Port ${wanted} was in use by another program when Tabletop Relay started, so it listens on port ${status.port}. `,
        ),
        h('div', { class: 'form-actions form-actions-start' }, keep, retry),
      ),
    ),
    moduleHint,
  );
}

/** The port the relay listens on; changing it moves the relay at once, and this page follows it there. */
export function portSection(state: AppState): { element: HTMLElement; dispose: () => void } {
  const input = h('input', {
    class: 'input input-port',
    type: 'number',
    min: 1024,
    max: 65535,
    step: 1,
    id: 'relay-port',
    name: 'port',
    required: true,
    'aria-describedby': 'port-hint',
  });
  const stateNote = h('div', { class: 'port-state', 'aria-live': 'polite' });
  const save = h('button', { type: 'submit', class: 'button button-primary' }, 'Change port');
  const element = h(
    'form',
    { class: 'card', 'aria-labelledby': 'port-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'port-title' }, 'Port'),
      h(
        'p',
        { class: 'muted' },
        'The port worlds and tools reach the relay on. Changing it moves the relay at once. ' +
          "Worlds and tools connected now stay connected until they reconnect; then they need the new address, so set the Foundry module's relay URL and your tools to it.",
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'relay-port' }, 'Port'),
      input,
      h(
        'p',
        { class: 'hint', id: 'port-hint' },
        'From 1024 to 65535. If another program uses the port, nothing changes.',
      ),
    ),
    stateNote,
    h('div', { class: 'form-actions' }, save),
  );
  const dispose = state.status.follow((status) => drawPortState(stateNote, input, status));
  element.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      await movePort(input.valueAsNumber);
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      save.disabled = false;
    }
  });
  return { element, dispose };
}
