import { z } from 'zod';
import { localRoute, type Route } from '../routing/route.ts';
import { text } from '../routing/parameters.ts';
import type { PairPageState } from '../auth/pairing.ts';
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import { escapeHtml } from '../http/html.ts';
import { framedPage, pageHeaders, PAGE_STYLE } from './page-frame.ts';

// The page the module opens in a new tab when it asks to pair (pairUrl of POST /auth/pair-request). It follows the
// request by itself through GET /pair/{code}/state, which never hands out the pairing code: the module's own poll
// (GET /auth/pair-request/{code}/status) does, once. The page stops asking once a state cannot change any more, an
// unknown code included.

type ShownState = PairPageState | 'unknown';

const UNKNOWN_REQUEST = 'Unknown pairing request; start pairing again from the module';

const STYLE = `${PAGE_STYLE}
.pill-waiting { background: var(--warning-soft); color: var(--warning); }
.pill-approved { background: var(--accent-soft); color: var(--accent); }
.pill-paired { background: var(--success-soft); color: var(--success); }
.pill-denied, .pill-expired, .pill-unknown { background: var(--danger-soft); color: var(--danger); }
.pill-waiting .dot, .pill-approved .dot { animation: pulse 1.4s ease-in-out infinite; }
@keyframes pulse { 50% { opacity: .3; } }
.card-paired { border-color: #86d5a3; }
`;

/** Shows the state the relay reports, every 2 s until it cannot change any more; after a failed look, 5 s. */
const SCRIPT = `
const main = document.querySelector('main');
const final = ['paired', 'denied', 'expired', 'unknown'];
function show(state) {
  main.dataset.state = state;
  for (const section of document.querySelectorAll('[data-for]')) section.hidden = section.dataset.for !== state;
  document.querySelector('.card').classList.toggle('card-paired', state === 'paired');
}
async function follow() {
  if (final.includes(main.dataset.state)) return;
  let waitMs = 2000;
  try {
    const answer = await fetch(location.pathname.replace(/\\/$/, '') + '/state', { cache: 'no-store' });
    if (answer.ok || answer.status === 404) show((await answer.json()).state || 'unknown');
    else waitMs = 5000;
  } catch {
    waitMs = 5000;
  }
  setTimeout(follow, waitMs);
}
setTimeout(follow, 2000);
`;

const SECTIONS: Record<ShownState, { pill: string; body: string }> = {
  waiting: {
    pill: 'Waiting for approval',
    body: `<h2>Approve this world in Tabletop Relay</h2>
<p>Open the settings: the request waits on the Status page, with Approve and Deny.</p>
<a class="button" href="/admin/" target="_blank" rel="noopener">Open the settings</a>
<p class="muted small">The settings open only on the computer that runs Tabletop Relay. There, its tray menu has
<strong>Open settings…</strong>; with <code>npm run serve</code>, run <code>npm run settings</code>.</p>
<p class="muted small">This page follows the request by itself.</p>`,
  },
  approved: {
    pill: 'Approved',
    body: '<h2>Pairing…</h2>\n<p>Foundry is collecting its connection token; this takes a few seconds.</p>',
  },
  paired: {
    pill: 'Paired',
    body: '<h2>Paired: you can close this tab</h2>\n<p>Foundry connects to Tabletop Relay by itself, now and each time the world starts.</p>',
  },
  denied: {
    pill: 'Denied',
    body: "<h2>This request was denied</h2>\n<p>To ask again, press <strong>Pair</strong> in the module's settings in Foundry.</p>",
  },
  expired: {
    pill: 'Expired',
    body: "<h2>This request expired</h2>\n<p>A request waits 10 minutes for approval. Press <strong>Pair</strong> in the module's settings in Foundry to ask again.</p>",
  },
  unknown: {
    pill: 'Unknown request',
    body: `<h2>Tabletop Relay does not know this request</h2>
<p>It may be long expired, or this link was mistyped. Press <strong>Pair</strong> in the module's settings in Foundry to start again.</p>`,
  },
};

const PAGE_HEADERS = pageHeaders(STYLE, SCRIPT);

function pairPage(code: string, worldTitle: string | undefined, state: ShownState): string {
  const sections = (Object.entries(SECTIONS) as [ShownState, (typeof SECTIONS)[ShownState]][])
    .map(
      ([name, { pill, body }]) =>
        `<div class="state" data-for="${name}"${name === state ? '' : ' hidden'}>
<span class="pill pill-${name}"><span class="dot"></span>${pill}</span>
${body}
</div>`,
    )
    .join('\n');
  const title = worldTitle ? `Pair “${escapeHtml(worldTitle)}”` : 'Pair your world';
  return framedPage({
    title,
    style: STYLE,
    script: SCRIPT,
    state,
    cardClass: `card${state === 'paired' ? ' card-paired' : ''}`,
    card: `<div class="card-header"><h1>${title}</h1><p class="muted small">Request <code>${escapeHtml(code)}</code></p></div>
${sections}`,
  });
}

/** The request's state; an unknown code shows as such. */
function stateOf(code: string, services: RelayServices): { state: ShownState; worldTitle?: string } {
  try {
    const { state, world } = services.pairing.pageState(code);
    return { state, worldTitle: world.worldTitle ?? world.worldId };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { state: 'unknown' };
    throw error;
  }
}

const codeParameters = z.object({
  code: text().describe('The pair request code, from pairUrl of POST /auth/pair-request'),
});

export const pairPageRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/pair/{code}',
    summary:
      'The page the module opens while pairing: what to do next, following the request by itself until it is paired',
    access: 'public',
    parameters: codeParameters,
    produces: 'text/html',
    handle: ({ parameters, services }) => {
      const { state, worldTitle } = stateOf(parameters.code, services);
      const html = pairPage(parameters.code.toUpperCase(), worldTitle, state);
      return { kind: 'html', status: state === 'unknown' ? 404 : 200, html, headers: PAGE_HEADERS };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/pair/{code}/state',
    summary:
      'What the pairing page shows: waiting, approved, paired, denied, expired (404 unknown); never the pairing code',
    access: 'public',
    parameters: codeParameters,
    handle: ({ parameters, services }) => {
      const { state } = stateOf(parameters.code, services);
      const headers = { 'Cache-Control': 'no-store' };
      if (state === 'unknown') return { status: 404, body: { state, error: UNKNOWN_REQUEST }, headers };
      return { body: { state }, headers };
    },
  }),
];
