import { createHash } from 'node:crypto';
import { z } from 'zod';
import { localRoute, type CallContext, type Route } from '../routing/route.ts';
import { text } from '../routing/parameters.ts';
import type { PairPageState } from '../auth/pairing.ts';
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import { escapeHtml } from '../http/html.ts';

// The page the module opens in a new tab when it asks to pair (pairUrl of POST /auth/pair-request). It follows the
// request by itself through GET /pair/{code}/state, which never hands out the pairing code: the module's own poll
// (GET /auth/pair-request/{code}/status) does, once. An unknown code counts as a wrong guess of the address, as on that
// poll, so the page stops asking once a state cannot change any more.

type ShownState = PairPageState | 'unknown';

const UNKNOWN_REQUEST = 'Unknown pairing request; start pairing again from the module';

/** The settings UI's look (renderer/styles.css), inline: the page may be opened on another computer than the relay's. */
export const STYLE = `
:root { color-scheme: light dark; --bg: #f4f5f8; --surface: #fff; --border: #e3e5ec; --border-strong: #cfd3dd; --text: #1c1f2a;
  --muted: #626879; --accent: #4f46e5; --accent-hover: #4338ca; --accent-soft: #eef0ff; --success: #15803d; --success-soft: #e8f7ee;
  --warning: #b45309; --warning-soft: #fff6e5; --danger: #c62828; --danger-soft: #fdecec; --radius: 10px;
  --shadow: 0 1px 2px rgba(20, 24, 40, .05), 0 1px 1px rgba(20, 24, 40, .03);
  --mono: ui-monospace, 'SF Mono', 'Cascadia Code', 'JetBrains Mono', Menlo, Consolas, monospace;
  font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', sans-serif; color: var(--text); background: var(--bg); }
@media (prefers-color-scheme: dark) { :root { --bg: #15161c; --surface: #1d1f27; --border: #2d303c; --border-strong: #3b3f4d; --text: #e8e9ef;
  --muted: #9aa0b2; --accent: #818cf8; --accent-hover: #a5b4fc; --accent-soft: #262a4a; --success: #4ade80; --success-soft: #15301f;
  --warning: #fbbf24; --warning-soft: #33280f; --danger: #f87171; --danger-soft: #3a1a1a; } }
* { box-sizing: border-box; }
body { margin: 0; }
h1, h2, p { margin: 0; }
[hidden] { display: none !important; }
code { font-family: var(--mono); font-size: .92em; }
a { color: var(--accent); }
main { max-width: 34rem; margin: 4rem auto; padding: 0 1rem; display: grid; gap: 16px; }
.brand { display: flex; align-items: center; gap: 10px; font-weight: 650; font-size: 15px; }
.brand svg { width: 28px; height: 28px; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 20px 22px; box-shadow: var(--shadow); }
.card-header { display: grid; gap: 4px; margin-bottom: 16px; }
h1 { font-size: 18px; font-weight: 650; }
.state { display: grid; gap: 10px; }
.state h2 { font-size: 15.5px; font-weight: 650; }
.muted { color: var(--muted); }
.small { font-size: 12.5px; }
.pill { justify-self: start; display: inline-flex; align-items: center; gap: 6px; padding: 3px 10px; border-radius: 999px; font-size: 12.5px; font-weight: 600; }
.pill-waiting { background: var(--warning-soft); color: var(--warning); }
.pill-approved { background: var(--accent-soft); color: var(--accent); }
.pill-paired { background: var(--success-soft); color: var(--success); }
.pill-denied, .pill-expired, .pill-unknown { background: var(--danger-soft); color: var(--danger); }
.dot { width: 8px; height: 8px; border-radius: 50%; background: currentColor; }
.pill-waiting .dot, .pill-approved .dot { animation: pulse 1.4s ease-in-out infinite; }
@keyframes pulse { 50% { opacity: .3; } }
@media (prefers-reduced-motion: reduce) { .dot { animation: none !important; } }
.card-paired { border-color: #86d5a3; }
.button { justify-self: start; display: inline-flex; align-items: center; height: 36px; padding: 0 14px; border-radius: 8px; font-weight: 560;
  text-decoration: none; background: var(--accent); color: #fff; }
.button:hover { background: var(--accent-hover); }
`;

/** Shows the state the relay reports, every 2 s until it cannot change any more; a 429 waits as long as it says. */
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
    if (answer.status === 429) waitMs = 1000 * Number(answer.headers.get('retry-after') || 5);
    else show((await answer.json()).state || 'unknown');
  } catch {
    waitMs = 5000;
  }
  setTimeout(follow, waitMs);
}
setTimeout(follow, 2000);
`;

export const LOGO = `<svg viewBox="0 0 64 64" aria-hidden="true"><rect width="64" height="64" rx="14" fill="#4f46e5"/>
<g fill="none" stroke="#fff" stroke-width="3.2" stroke-linejoin="round" stroke-linecap="round"><path d="M32 10 51 21v22L32 54 13 43V21z"/>
<path d="M32 20 43 39H21z"/><path d="M32 10v10M51 21l-8 18M13 21l8 18M21 39l-8 4M43 39l8 4M21 39l11 15 11-15"/></g>
<circle cx="50" cy="50" r="7" fill="#34d399" stroke="#4338ca" stroke-width="3"/></svg>`;

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

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/** Only this page's own style and script run, and it can talk to the relay only. */
const PAGE_HEADERS = {
  'Content-Security-Policy': `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tabletop Relay</title>
<style>${STYLE}</style>
</head>
<body>
<main data-state="${state}">
<div class="brand">${LOGO}<span>Tabletop Relay</span></div>
<section class="card${state === 'paired' ? ' card-paired' : ''}" aria-live="polite">
<div class="card-header"><h1>${title}</h1><p class="muted small">Request <code>${escapeHtml(code)}</code></p></div>
${sections}
</section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The request's state for this caller; an unknown code shows as such. */
function stateOf(code: string, call: CallContext, services: RelayServices): { state: ShownState; worldTitle?: string } {
  try {
    const { state, world } = services.pairing.pageState(code, call.remoteAddress);
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
    handle: ({ parameters, call, services }) => {
      const { state, worldTitle } = stateOf(parameters.code, call, services);
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
    handle: ({ parameters, call, services }) => {
      const { state } = stateOf(parameters.code, call, services);
      const headers = { 'Cache-Control': 'no-store' };
      if (state === 'unknown') return { status: 404, body: { state, error: UNKNOWN_REQUEST }, headers };
      return { body: { state }, headers };
    },
  }),
];
