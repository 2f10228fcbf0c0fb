// Pair requests waiting for the GM: which page asked, from where, and the buttons that answer.
import { admin, type PairRequest } from '../admin-api.ts';
import { h, icon } from '../dom.ts';
import { countdown, systemLine } from '../format.ts';
import { denyAddressButton } from './denied-addresses.ts';
import { decisionButtons } from './waiting-cards.ts';

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
  const { approve, deny } = decisionButtons(async (approved) => {
    if (!approved) {
      await admin.deny(request.code);
      return 'Pairing request denied';
    }
    await admin.approve(request.code);
    return `Approved: ${request.world.worldTitle ?? 'the world'} will connect in a moment`;
  });
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

export function pairRequestsSection(requests: PairRequest[]): HTMLElement | undefined {
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
