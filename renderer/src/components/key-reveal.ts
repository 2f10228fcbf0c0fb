// What the GM copies once: a new key, or a 2.x module's settings, shown only this once.
import type { NewKey, WorldLink } from '../admin-api.ts';
import { copyButton, h, icon } from '../dom.ts';

export function revealPanel(created: NewKey, verb: 'created' | 'rotated', onDone: () => void): HTMLElement {
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

export function linkRevealPanel(link: WorldLink, onDone: () => void): HTMLElement {
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
