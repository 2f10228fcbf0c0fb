import { admin, type RelaySettings, type RelayStatus } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { copyButton, h, icon, replaceChildren, toast, toggle } from '../dom.ts';
import type { AppInfo, DesktopBridge } from '../../../contracts/desktop-ipc.ts';
import { portSection } from '../components/port-setting.ts';
import { corsSection } from '../components/browser-access.ts';

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
