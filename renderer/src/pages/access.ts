import { admin, type RelaySettings, type RelayStatus } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { copyButton, h, icon, replaceChildren, toast, toggle } from '../dom.ts';
import type { AppInfo, DesktopBridge } from '../../../contracts/desktop-ipc.ts';
import { worldSocketUrl } from '../../../contracts/world-protocol.ts';

function lanSection(settings: RelaySettings, lanUrls: HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'lan-title' },
    h(
      'div',
      { class: 'card-header card-header-row' },
      h(
        'div',
        {},
        h('h2', { id: 'lan-title' }, 'LAN access'),
        h(
          'p',
          { class: 'muted' },
          "Let players' tools and devices on your home network call the relay. They still need an API key.",
        ),
      ),
      toggle('lan-access', 'Allow devices on my network', settings.lanAccess, async (on) => {
        await admin.updateSettings({ lanAccess: on });
        toast(on ? 'LAN access on: the relay listens on your network' : 'LAN access off: this computer only');
      }),
    ),
    lanUrls,
  );
}

function drawLanUrls(target: HTMLElement, status: RelayStatus | undefined): void {
  if (!status) return;
  if (!status.lan.enabled) {
    replaceChildren(
      target,
      h('p', { class: 'muted small' }, 'Only this computer can reach ', h('code', {}, status.url), '.'),
    );
    return;
  }
  if (status.lan.urls.length === 0) {
    replaceChildren(
      target,
      h('p', { class: 'muted small' }, 'LAN access is on, but this computer has no network address right now.'),
    );
    return;
  }
  replaceChildren(
    target,
    h(
      'ul',
      { class: 'url-list', 'aria-label': 'LAN addresses' },
      ...status.lan.urls.map((url) =>
        h(
          'li',
          {},
          h('code', { class: 'code-box' }, url),
          copyButton(() => url, 'Copy', { small: true }),
        ),
      ),
    ),
    h(
      'p',
      { class: 'hint' },
      icon('warning'),
      ' Turn LAN access off on networks you do not trust, such as a café or a convention hall.',
    ),
  );
}

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
function portSection(state: AppState): { element: HTMLElement; dispose: () => void } {
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

/** Names besides this computer's own addresses that the relay answers to; any other name gets 421 (DNS rebinding). */
function hostsSection(settings: RelaySettings): HTMLElement {
  const names = h('textarea', {
    class: 'input input-mono',
    id: 'allowed-hosts',
    rows: 2,
    placeholder: 'relay.lan\nmy-pc.local',
    'aria-describedby': 'hosts-hint',
  });
  names.value = settings.allowedHosts.join('\n');
  const save = h('button', { type: 'submit', class: 'button button-primary' }, 'Save names');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'hosts-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'hosts-title' }, 'Names for this computer'),
      h(
        'p',
        { class: 'muted' },
        "The relay answers to localhost, 127.0.0.1 and, with LAN access on, this computer's network addresses. " +
          'To reach it by another name, such as one from your router or a hosts file, add that name here. Other names are refused, so that no web page can reach the relay by pointing its own name at this computer.',
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'allowed-hosts', class: 'visually-hidden' }, 'Allowed host names, one a line'),
      names,
      h('p', { class: 'hint', id: 'hosts-hint' }, 'One name a line, without http:// or port.'),
    ),
    h('div', { class: 'form-actions' }, save),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const entries = names.value
      .split(/\s+/)
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean);
    save.disabled = true;
    try {
      const saved = await admin.updateSettings({ allowedHosts: entries });
      names.value = saved.allowedHosts.join('\n');
      toast(
        entries.length === 0
          ? "The relay answers to this computer's own addresses only"
          : `${entries.length} name${entries.length === 1 ? '' : 's'} allowed`,
      );
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      save.disabled = false;
    }
  });
  return form;
}

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

function corsSection(settings: RelaySettings): HTMLElement {
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

function limitsSection(settings: RelaySettings): HTMLElement {
  const perMinute = h('input', {
    class: 'input',
    type: 'number',
    min: 0,
    max: 1000000,
    step: 1,
    id: 'rate-limit',
    name: 'requestsPerMinute',
    required: true,
    'aria-describedby': 'rate-hint',
  });
  perMinute.value = String(settings.requestsPerMinute);
  const streams = h('input', {
    class: 'input',
    type: 'number',
    min: 0,
    max: 1000000,
    step: 1,
    id: 'stream-limit',
    name: 'streamsPerKey',
    required: true,
    'aria-describedby': 'stream-hint',
  });
  streams.value = String(settings.streamsPerKey);
  const save = h('button', { type: 'submit', class: 'button button-primary' }, 'Save limits');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'limits-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'limits-title' }, 'Limits per key'),
      h('p', { class: 'muted' }, 'Keep one runaway script from flooding your world. 0 turns a limit off.'),
    ),
    h(
      'div',
      { class: 'field-grid' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'rate-limit' }, 'Requests per minute'),
        perMinute,
        h('p', { class: 'hint', id: 'rate-hint' }, 'Past it, calls get 429 with a Retry-After header.'),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'stream-limit' }, 'Open event streams'),
        streams,
        h('p', { class: 'hint', id: 'stream-hint' }, 'Server-Sent Event streams one key may hold open at once.'),
      ),
    ),
    h('div', { class: 'form-actions' }, save),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      await admin.updateSettings({ requestsPerMinute: perMinute.valueAsNumber, streamsPerKey: streams.valueAsNumber });
      toast('Limits saved');
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      save.disabled = false;
    }
  });
  return form;
}

function desktopSection(desktop: DesktopBridge, info: AppInfo): HTMLElement {
  const logs = h('button', { type: 'button', class: 'button button-secondary' }, icon('folder'), 'Open logs folder');
  logs.addEventListener('click', () => void desktop.openLogsFolder());
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'desktop-title' },
    h(
      'div',
      { class: 'card-header card-header-row' },
      h(
        'div',
        {},
        h('h2', { id: 'desktop-title' }, 'This computer'),
        h(
          'p',
          { class: 'muted' },
          `Tabletop Relay ${info.version}. Start it with your computer so your world always finds it.`,
        ),
      ),
      toggle(
        'start-at-login',
        'Start at login',
        info.startAtLogin,
        async (on) => void (await desktop.setStartAtLogin(on)),
      ),
    ),
    h('div', { class: 'form-actions form-actions-start' }, logs),
  );
}

export const accessPage: Page = {
  id: 'access',
  title: 'Access',
  subtitle: 'Who can reach the relay, and how much',
  icon: 'access',
  render(state: AppState) {
    const element = h('div', { class: 'stack' }, h('div', { class: 'card skeleton', 'aria-busy': 'true' }));
    const lanUrls = h('div', { class: 'lan-urls', 'aria-live': 'polite' });
    const stopLan = state.status.follow((status) => drawLanUrls(lanUrls, status));
    let stopPort = () => {};
    const stop = () => {
      stopLan();
      stopPort();
    };
    const load = async () => {
      try {
        const settings = await admin.settings();
        const desktop = state.desktop ? desktopSection(state.desktop, await state.desktop.appInfo()) : null;
        const port = portSection(state);
        stopPort = port.dispose;
        replaceChildren(
          element,
          lanSection(settings, lanUrls),
          port.element,
          hostsSection(settings),
          corsSection(settings),
          limitsSection(settings),
          desktop,
        );
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    void load();
    return { element, dispose: stop };
  },
};
