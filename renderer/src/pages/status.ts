import { admin, type PairRequest, type RelayStatus, type World } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { copyButton, emptyState, h, icon, replaceChildren, toast } from '../dom.ts';
import { countdown, durationSince, plural, roleName, systemLine } from '../format.ts';
import { pairedWorldsSection } from './paired-worlds.ts';
import { keyRequestsSection } from './key-requests.ts';
import { deniedAddressesSection, denyAddressButton } from './denied-addresses.ts';
import { worldSocketUrl } from '../../../contracts/world-protocol.ts';

/**
 * The page that sent a pair request. Any web page can send one, and from this computer it looks like the GM's own
 * Foundry tab: a page the relay does not know as a world's Foundry page is flagged with its address for the GM to
 * check, and so is a request no browser sent.
 */
function pageLine(request: PairRequest): HTMLElement {
  if (request.page === 'foundry')
    return h(
      'span',
      { class: 'muted small pair-request-page', 'data-page': 'foundry' },
      'Sent by ',
      h('code', {}, request.origin ?? ''),
      ', the Foundry page of a world you paired',
    );
  const text =
    request.page === 'other'
      ? [
          'Sent by the web page ',
          h('code', {}, request.origin ?? ''),
          ', not the Foundry page of a world you paired. Approve only if you open Foundry at this address.',
        ]
      : ['Sent by no browser, though Foundry always runs in one. Approve only if you know why.'];
  return h(
    'span',
    { class: 'pill pair-request-page pair-request-page-check', 'data-page': request.page },
    icon('warning'),
    h('span', {}, ...text),
  );
}

function pairRequestCard(request: PairRequest): HTMLElement {
  const approve = h(
    'button',
    { type: 'button', class: 'button button-primary', 'data-action': 'approve' },
    icon('check'),
    'Approve',
  );
  const deny = h('button', { type: 'button', class: 'button button-secondary', 'data-action': 'deny' }, 'Deny');
  const decide = async (decision: 'approve' | 'deny') => {
    approve.disabled = deny.disabled = true;
    try {
      await (decision === 'approve' ? admin.approve(request.code) : admin.deny(request.code));
      toast(
        decision === 'approve'
          ? `Approved: ${request.world.worldTitle ?? 'the world'} will connect in a moment`
          : 'Pairing request denied',
      );
    } catch (error) {
      approve.disabled = deny.disabled = false;
      toast((error as Error).message, 'error');
    }
  };
  approve.addEventListener('click', () => void decide('approve'));
  deny.addEventListener('click', () => void decide('deny'));
  const world = request.world;
  return h(
    'li',
    { class: 'pair-request', 'data-code': request.code },
    h('div', { class: 'pair-request-icon' }, icon('world')),
    h(
      'div',
      { class: 'pair-request-text' },
      h('strong', {}, world.worldTitle || world.worldId || 'A Foundry world'),
      h(
        'span',
        { class: 'muted' },
        [systemLine(world), world.foundryVersion && `Foundry ${world.foundryVersion}`].filter(Boolean).join(' · '),
        request.upgradeOnly ? ' · adding this browser to a paired world' : '',
      ),
      pageLine(request),
      request.pairedWorld && !request.upgradeOnly
        ? h(
            'span',
            { class: 'pill pair-request-paired', 'data-paired-client-id': request.pairedWorld.clientId },
            `Already paired — approving gives this browser a new token for ${request.pairedWorld.worldTitle || request.pairedWorld.clientId}`,
          )
        : null,
      h(
        'span',
        { class: 'muted small' },
        'From ',
        h('code', { class: 'pair-request-source' }, request.source),
        ' · code ',
        h('code', {}, request.code),
        ' · expires in ',
        h('span', { 'data-expires': request.expiresAt }, countdown(request.expiresAt)),
      ),
    ),
    h('div', { class: 'pair-request-actions' }, denyAddressButton(request), deny, approve),
  );
}

function pairRequestsSection(requests: PairRequest[]): HTMLElement | undefined {
  if (requests.length === 0) return undefined;
  return h(
    'section',
    { class: 'card card-attention', 'aria-labelledby': 'pair-requests-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'h2',
        { id: 'pair-requests-title' },
        requests.length === 1 ? 'A world asks to pair' : `${requests.length} worlds ask to pair`,
      ),
      h(
        'p',
        { class: 'muted' },
        'Approve only a world you just pressed Pair in. It then connects with a token of its own.',
      ),
    ),
    h('ul', { class: 'pair-requests' }, ...requests.map(pairRequestCard)),
  );
}

function gameMaster(world: World): string {
  const gm =
    world.players.find((player) => player.role === 4 && player.active) ??
    world.players.find((player) => player.role === 4);
  return gm ? gm.name : 'No GM';
}

function worldCard(world: World): HTMLElement {
  const online = world.players.filter((player) => player.active);
  return h(
    'article',
    { class: 'card world', 'data-client-id': world.clientId },
    h(
      'div',
      { class: 'world-head' },
      h('div', { class: 'world-badge', 'aria-hidden': 'true' }, icon('world')),
      h(
        'div',
        {},
        h('h3', { class: 'world-title' }, world.worldTitle || world.clientId),
        h('p', { class: 'muted' }, systemLine(world)),
      ),
      h('span', { class: 'pill pill-success' }, h('span', { class: 'dot' }), 'Connected'),
    ),
    h(
      'dl',
      { class: 'facts' },
      h('div', {}, h('dt', {}, 'Foundry'), h('dd', {}, world.foundryVersion ?? 'Unknown')),
      h('div', {}, h('dt', {}, 'Game master'), h('dd', {}, gameMaster(world))),
      h(
        'div',
        {},
        h('dt', {}, 'Connected for'),
        h('dd', { 'data-since': world.connectedSince }, durationSince(world.connectedSince)),
      ),
      h('div', {}, h('dt', {}, 'Client id'), h('dd', {}, h('code', {}, world.clientId))),
    ),
    h(
      'div',
      { class: 'players' },
      h('span', { class: 'muted small' }, `${plural(online.length, 'player')} online`),
      h(
        'ul',
        { class: 'avatars' },
        ...world.players.map((player) =>
          h(
            'li',
            {
              class: `avatar${player.active ? ' is-active' : ''}`,
              title: `${player.name} · ${roleName(player.role)}${player.active ? ' · online' : ''}`,
            },
            player.name.slice(0, 1).toUpperCase(),
            h(
              'span',
              { class: 'visually-hidden' },
              ` ${player.name}, ${roleName(player.role)}${player.active ? ', online' : ''}`,
            ),
          ),
        ),
      ),
    ),
  );
}

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
    // Drawn again on every change, apart from the key requests, whose cards keep what the GM ticked and typed.
    const alerts = h('div', { class: 'stack' });
    const keyRequests = keyRequestsSection();
    const live = h('div', { class: 'stack' });
    const codeSection = pairingCodeSection();
    const pairedWorlds = pairedWorldsSection(state);
    const element = h('div', { class: 'stack' }, alerts, keyRequests.element, live, codeSection, pairedWorlds.element);
    const draw = (status: RelayStatus | undefined) => {
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
