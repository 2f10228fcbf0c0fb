// What the module shows a GM whose connection token the relay refused (module-protocol.md §2.3, §3.5): an error
// notification and its "REST API Connection" dialog, whose Pair button starts pairing again. Drawn with DOM calls
// only: the reason comes from the relay.

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** Foundry's `ui.notifications.error`: a line in the notifications list at the top of the page. */
export function notifyError(text: string): void {
  let list = document.getElementById('notifications');
  if (!list) {
    list = element('ol', { id: 'notifications' });
    document.body.append(list);
  }
  list.append(element('li', { class: 'notification error' }, text));
}

/** The module's Connection dialog for a browser without a token: status "Not paired", and the ways to pair. */
export function openConnectionDialog(relayUrl: string): void {
  document.querySelector('.rest-api-connection-dialog')?.remove();
  const close = element('button', { type: 'button', 'data-action': 'close' }, 'Close');
  const dialog = element(
    'section',
    { class: 'application dialog rest-api-connection-dialog', role: 'dialog', 'aria-labelledby': 'rest-api-title' },
    element('header', { class: 'window-header' }, element('h1', { id: 'rest-api-title' }, 'REST API Connection')),
    element('p', {}, element('b', {}, 'Status: '), element('span', { class: 'pairing-status' }, 'Not paired')),
    element('p', {}, element('b', {}, 'Relay: '), element('code', {}, relayUrl)),
    element(
      'footer',
      {},
      element('button', { type: 'button', 'data-action': 'browserPair' }, 'Pair'),
      element('button', { type: 'button', 'data-action': 'pair' }, 'Enter Code'),
      close,
    ),
  );
  close.addEventListener('click', () => dialog.remove());
  document.body.append(dialog);
}
