// Browser access: which web pages' origins may call the API from a browser.
import { admin, type RelaySettings } from '../admin-api.ts';
import { h, icon, toast } from '../dom.ts';

/** Origins a GM commonly adds; the Foundry page itself needs none to pair. */
const SUGGESTED_ORIGINS = [
  { origin: 'http://localhost:30000', label: 'Foundry on this computer' },
  { origin: 'http://127.0.0.1:30000', label: 'Foundry on this computer, by address' },
];

function suggestionButtons(origins: HTMLTextAreaElement, chooseListed: () => void): HTMLElement {
  return h(
    'div',
    { class: 'chips', 'aria-label': 'Common origins' },
    ...SUGGESTED_ORIGINS.map(({ origin, label }) => {
      const add = h(
        'button',
        { type: 'button', class: 'button button-secondary button-small', title: label, 'data-origin': origin },
        icon('plus'),
        origin,
      );
      add.addEventListener('click', () => {
        const entries = origins.value.split(/\s+/).filter(Boolean);
        if (!entries.includes(origin)) origins.value = [...entries, origin].join('\n');
        chooseListed();
      });
      return add;
    }),
  );
}

export function corsSection(settings: RelaySettings): HTMLElement {
  const anyOrigin = settings.corsOrigins.includes('*');
  const listed = settings.corsOrigins.filter((origin) => origin !== '*');
  const only = h('input', { type: 'radio', name: 'cors-mode', value: 'only', id: 'cors-only', checked: !anyOrigin });
  const any = h('input', { type: 'radio', name: 'cors-mode', value: 'any', id: 'cors-any', checked: anyOrigin });
  const origins = h('textarea', {
    class: 'input input-mono',
    id: 'cors-origins',
    rows: 3,
    placeholder: 'https://my-overlay.example\nhttp://localhost:5173',
    'aria-describedby': 'cors-hint',
  });
  origins.value = listed.join('\n');
  const anyWarning = h(
    'p',
    { class: 'banner banner-warning', id: 'cors-any-warning', role: 'note' },
    icon('warning'),
    h(
      'span',
      {},
      h('strong', {}, 'Any web page '),
      'you open in a browser may call the relay. Keys still apply, but a page that gets hold of one can use it. List the origins you use instead.',
    ),
  );
  const syncMode = () => {
    origins.disabled = any.checked;
    anyWarning.hidden = !any.checked;
  };
  const chooseListed = () => {
    only.checked = true;
    syncMode();
  };
  any.addEventListener('change', syncMode);
  only.addEventListener('change', syncMode);
  syncMode();
  const save = h('button', { type: 'submit', class: 'button button-primary' }, 'Save origins');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'cors-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'cors-title' }, 'Browser access'),
      h(
        'p',
        { class: 'muted' },
        'Web pages that may call the relay with a key from a browser, such as web dashboards and overlays. The Foundry page can always pair, and scripts, Stream Deck and other programs are not affected.',
      ),
    ),
    h(
      'fieldset',
      { class: 'radios' },
      h('legend', { class: 'visually-hidden' }, 'Which web pages may call the relay'),
      h('label', { class: 'check', for: 'cors-only' }, only, h('span', {}, 'Only these origins')),
      h('label', { class: 'check', for: 'cors-any' }, any, h('span', {}, 'Any web page (', h('code', {}, '*'), ')')),
    ),
    h(
      'div',
      { class: 'field' },
      anyWarning,
      h('label', { for: 'cors-origins', class: 'visually-hidden' }, 'Allowed origins, one a line'),
      origins,
      h(
        'p',
        { class: 'hint', id: 'cors-hint' },
        'One origin a line: scheme, host and port, with no path. For an OBS browser source, add the origin of the overlay page it shows.',
      ),
    ),
    suggestionButtons(origins, chooseListed),
    h('div', { class: 'form-actions' }, save),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const entries = origins.value
      .split(/\s+/)
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean);
    const invalid = entries.find((origin) => !/^https?:\/\/[^/\s]+$/.test(origin));
    if (only.checked && invalid) {
      toast(`"${invalid}" is not an origin like https://example.com`, 'error');
      return;
    }
    save.disabled = true;
    try {
      await admin.updateSettings({ corsOrigins: any.checked ? ['*'] : entries });
      toast(
        any.checked
          ? 'Any web page may call the relay'
          : entries.length === 0
            ? 'No web page may call the relay'
            : `${entries.length} origin${entries.length === 1 ? '' : 's'} allowed`,
      );
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      save.disabled = false;
    }
  });
  return form;
}
