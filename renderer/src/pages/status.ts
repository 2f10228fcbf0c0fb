import { admin, type RelayStatus } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { copyButton, emptyState, h, icon, replaceChildren, toast } from '../dom.ts';
import { countdown, durationSince } from '../format.ts';
import { pairedWorldsSection } from '../components/paired-worlds.ts';
import { keyRequestsSection } from '../components/key-requests.ts';
import { confirmationsSection } from '../components/confirmations.ts';
import { deniedAddressesSection } from '../components/denied-addresses.ts';
import { worldSocketUrl } from '../../../contracts/world-protocol.ts';
import { pairRequestsSection } from '../components/pair-requests.ts';
import { worldCard } from '../components/world-card.ts';

function statTile(label: string, value: string, detail?: string, valueClass = ''): HTMLElement {
  return h(
    'div',
    { class: 'stat' },
    h('span', { class: 'stat-label' }, label),
    h('strong', { class: `stat-value ${valueClass}`.trim(), title: value }, value),
    detail ? h('span', { class: 'muted small' }, detail) : null,
  );
}

function statsRow(status: RelayStatus): HTMLElement {
  return h(
    'section',
    { class: 'stats', 'aria-label': 'Relay activity' },
    statTile('API calls', status.callsLastMinute.toLocaleString(), 'in the last minute'),
    statTile('Event streams', status.eventStreams.toLocaleString(), 'open now'),
    statTile(
      'Relay address',
      status.url.replace(/^https?:\/\//, ''),
      status.lan.enabled
        ? `LAN: ${status.lan.urls.length} address${status.lan.urls.length === 1 ? '' : 'es'}`
        : 'This computer only',
      'stat-value-text',
    ),
  );
}

function guide(status: RelayStatus): HTMLElement {
  const relayUrl = worldSocketUrl(status.url);
  const step = (index: number, title: string, ...body: (Node | string)[]) =>
    h(
      'li',
      { class: 'step' },
      h('span', { class: 'step-number', 'aria-hidden': 'true' }, String(index)),
      h('div', {}, h('strong', {}, title), h('p', { class: 'muted' }, ...body)),
    );
  return h(
    'section',
    { class: 'card guide', 'aria-labelledby': 'guide-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'guide-title' }, 'Connect your world'),
      h('p', { class: 'muted' }, 'Four steps in Foundry VTT, once per world. The relay keeps the pairing afterwards.'),
    ),
    h(
      'ol',
      { class: 'steps' },
      step(
        1,
        'Install the module',
        'In Foundry, open ',
        h('em', {}, 'Add-on Modules'),
        ', install ',
        h('strong', {}, 'Foundry REST API'),
        ' and enable it in your world.',
      ),
      step(
        2,
        'Set the relay URL',
        "In the module's settings, set the relay URL to:",
        h(
          'span',
          { class: 'inline-copy' },
          h('code', { class: 'code-box' }, relayUrl),
          copyButton(() => relayUrl, 'Copy', { small: true }),
        ),
      ),
      step(3, 'Press Pair', 'Press ', h('strong', {}, 'Pair'), ' in the module. A request appears on this page.'),
      step(4, 'Approve it here', 'Check the world name and approve. The world connects at once.'),
    ),
    h(
      'p',
      { class: 'waiting', role: 'status' },
      h('span', { class: 'pulse', 'aria-hidden': 'true' }),
      'Waiting for your world…',
    ),
  );
}

function pairingCodeSection(): HTMLElement {
  const output = h('div', { class: 'pairing-code', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'button button-secondary' }, 'Generate pairing code');
  let timer: ReturnType<typeof setInterval> | undefined;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const code = await admin.pairingCode();
      const left = h('span', {}, countdown(code.expiresAt));
      clearInterval(timer);
      timer = setInterval(() => {
        left.textContent = countdown(code.expiresAt);
        if (Date.parse(code.expiresAt) <= Date.now()) {
          clearInterval(timer);
          replaceChildren(output, h('span', { class: 'muted' }, 'That code expired. Generate a new one.'));
        }
      }, 1000);
      replaceChildren(
        output,
        h('span', { class: 'code-big', 'data-pairing-code': code.code }, code.code),
        h(
          'span',
          { class: 'muted small' },
          'Type it into ',
          h('strong', {}, 'Enter Code'),
          ' in the module · expires in ',
          left,
        ),
      );
      button.textContent = 'New code';
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      button.disabled = false;
    }
  });
  return h(
    'section',
    { class: 'card card-row', 'aria-labelledby': 'code-title' },
    h(
      'div',
      {},
      h('h2', { id: 'code-title' }, 'Pair with a code'),
      h('p', { class: 'muted' }, 'For a Foundry server on another computer, or to add a browser to a paired world.'),
    ),
    h('div', { class: 'card-row-side' }, output, button),
  );
}

export const statusPage: Page = {
  id: 'status',
  title: 'Status',
  subtitle: 'Your worlds and who is asking to connect',
  icon: 'status',
  render(state: AppState) {
    // Drawn again on every change, apart from the key requests, whose cards keep what the GM ticked and typed, and the
    // held changes, whose cards stay put while the GM reads them.
    const alerts = h('div', { class: 'stack' });
    const confirmations = confirmationsSection();
    const keyRequests = keyRequestsSection();
    const live = h('div', { class: 'stack' });
    const codeSection = pairingCodeSection();
    const pairedWorlds = pairedWorldsSection(state);
    const element = h(
      'div',
      { class: 'stack' },
      alerts,
      confirmations.element,
      keyRequests.element,
      live,
      codeSection,
      pairedWorlds.element,
    );
    const draw = (status: RelayStatus | undefined) => {
      confirmations.update(status);
      keyRequests.update(status);
      if (!status) {
        replaceChildren(alerts);
        replaceChildren(
          live,
          h(
            'div',
            { class: 'card' },
            emptyState('status', 'Reaching the relay…', 'The settings connect to the relay running on this computer.'),
          ),
        );
        return;
      }
      replaceChildren(
        alerts,
        status.paused
          ? h(
              'div',
              { class: 'banner banner-warning', role: 'status' },
              icon('pause'),
              h(
                'span',
                {},
                h('strong', {}, 'The relay is paused. '),
                'API calls are refused with 503 until you resume it from the tray menu. Worlds stay connected.',
              ),
            )
          : null,
        pairRequestsSection(status.pairRequests),
        deniedAddressesSection(status.deniedAddresses),
      );
      replaceChildren(
        live,
        status.worlds.length === 0
          ? guide(status)
          : h('section', { class: 'worlds', 'aria-label': 'Connected worlds' }, ...status.worlds.map(worldCard)),
        statsRow(status),
      );
    };
    const stop = state.status.follow(draw);
    // Countdowns and "connected for" move with the clock, not with events.
    const tick = setInterval(() => {
      for (const node of element.querySelectorAll<HTMLElement>('[data-expires]'))
        node.textContent = countdown(node.dataset.expires!);
      for (const node of element.querySelectorAll<HTMLElement>('[data-since]'))
        node.textContent = durationSince(node.dataset.since!);
      keyRequests.tick();
      confirmations.tick();
    }, 1000);
    return {
      element,
      dispose: () => {
        stop();
        clearInterval(tick);
        pairedWorlds.dispose();
      },
    };
  },
};
