import { z } from 'zod';
import { localRoute, type CallContext, type Route } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';
import { text } from '../routing/parameters.ts';
import { refuseOtherPages } from '../routing/access.ts';
import { PLAYER_SCOPES } from '../auth/scopes.ts';
import { INVITATION_PAGE_PATH } from '../auth/invitations.ts';
import type { InvitationCheck, InvitationExchange } from '../../contracts/invitations.ts';
import { PLAY_PAGE_PATH, PLAY_STORAGE_KEY } from '../../contracts/play.ts';
import { framedPage, pageHeaders, PAGE_STYLE } from './page-frame.ts';

// The page a player's invitation link opens (http://<LAN address>:<port>/invite#<secret>). The secret is in the
// fragment, which the browser never sends: the page is the same for everyone, and its script takes the secret out of
// the address bar at once, then trades it, when the player asks, for a key (POST /auth/invitation, once). A link
// preview that fetches the page gets nothing, and one that runs it does not press the button. The key is kept in the
// storage of the relay's origin, and the player page (/play/) opens with it; a browser that keeps nothing (a private
// tab that refuses storage) shows the key to copy instead.

const STYLE = `${PAGE_STYLE}
.pill-ready { background: var(--accent-soft); color: var(--accent); }
.pill-done { background: var(--success-soft); color: var(--success); }
.pill-failed, .pill-missing { background: var(--danger-soft); color: var(--danger); }
button.button { border: 0; font: inherit; font-weight: 560; cursor: pointer; }
button.button:disabled { opacity: .6; cursor: default; }
.field { display: grid; gap: 6px; }
.label { font-weight: 600; font-size: 13px; }
.copy-row { display: flex; gap: 8px; }
.copy-row input { flex: 1; min-width: 0; height: 36px; padding: 0 10px; border: 1px solid var(--border-strong); border-radius: 8px;
  font: 13px var(--mono); color: var(--text); background: var(--bg); }
.button-secondary { background: var(--surface); color: var(--text); border: 1px solid var(--border-strong) !important; }
.button-secondary:hover { background: var(--bg); }
.note { padding: 10px 12px; border-radius: 8px; background: var(--warning-soft); color: var(--text); font-size: 13px; }
`;

/**
 * Takes the secret out of the address bar and asks whether the invitation is still open, so a used or expired one says
 * so at once; then trades it once, on the player's click, for the relay address and a key, which it keeps for the
 * player page and opens it.
 */
const SCRIPT = `
function takeSecret() {
  const taken = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, '', location.pathname);
  return taken;
}
let secret = takeSecret();
const main = document.querySelector('main');
function show(state) {
  main.dataset.state = state;
  for (const section of document.querySelectorAll('[data-for]')) section.hidden = section.dataset.for !== state;
}
function fill(name, value) {
  for (const element of document.querySelectorAll('[data-field="' + name + '"]')) {
    if (element.tagName === 'INPUT') element.value = value;
    else element.textContent = value;
  }
}
async function copy(button) {
  const field = document.getElementById(button.dataset.copy);
  let copied = false;
  try {
    await navigator.clipboard.writeText(field.value);
    copied = true;
  } catch {
    field.select();
    copied = document.execCommand('copy');
  }
  button.textContent = copied ? 'Copied' : 'Select and copy';
  setTimeout(() => (button.textContent = 'Copy'), 1600);
}
async function ask(path) {
  const answer = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret }),
    cache: 'no-store',
    referrerPolicy: 'no-referrer',
  });
  return { ok: answer.ok, status: answer.status, body: await answer.json().catch(() => ({})) };
}
function refused(answer) {
  fill('error', answer.body.error || 'The relay answered ' + answer.status);
  show('failed');
}
async function check() {
  show('checking');
  fill('whose', '');
  try {
    const answer = await ask('/auth/invitation/status');
    if (!answer.ok) return refused(answer);
    fill('whose', 'For ' + answer.body.userName + ' in ' + (answer.body.worldTitle || answer.body.clientId) + '.');
  } catch {
    // The press says what is wrong, and can be tried again.
  }
  get.disabled = false;
  show('ready');
}
async function exchange(button) {
  button.disabled = true;
  show('working');
  try {
    const answer = await ask('/auth/invitation');
    if (!answer.ok) return refused(answer);
    try {
      localStorage.setItem(${JSON.stringify(PLAY_STORAGE_KEY)}, JSON.stringify(answer.body));
      location.replace(${JSON.stringify(PLAY_PAGE_PATH)});
      return;
    } catch {
      // The browser keeps nothing for this page: the key is shown to copy instead.
    }
    fill('relayUrl', answer.body.relayUrl);
    fill('key', answer.body.key);
    fill('userName', answer.body.userName);
    fill('worldTitle', answer.body.worldTitle || answer.body.clientId);
    show('done');
  } catch {
    fill('error', 'The relay did not answer: check that this device is on the same network as the GM, then try again.');
    show('failed');
  }
}
for (const button of document.querySelectorAll('[data-copy]')) button.addEventListener('click', () => copy(button));
const get = document.getElementById('get-key');
get.addEventListener('click', () => exchange(get));
if (secret) check();
else show('missing');
// The link opened again in this tab changes only the fragment: the page stays, and takes the new secret.
window.addEventListener('hashchange', () => {
  secret = takeSecret();
  if (secret) check();
});
`;

const PAGE_HEADERS = pageHeaders(STYLE, SCRIPT);

function copyField(id: string, label: string, field: string): string {
  return `<div class="field"><label class="label" for="${id}">${label}</label>
<div class="copy-row"><input id="${id}" data-field="${field}" readonly autocomplete="off" spellcheck="false">
<button type="button" class="button button-secondary" data-copy="${id}">Copy</button></div></div>`;
}

const PAGE = framedPage({
  title: 'Your invitation',
  style: STYLE,
  script: SCRIPT,
  state: 'missing',
  cardClass: 'card',
  card: `<div class="card-header"><h1>Your invitation</h1>
<p class="muted small">Your GM runs Tabletop Relay in front of their Foundry world. This page gives your device a key of its own.</p></div>
<div class="state" data-for="ready" hidden>
<span class="pill pill-ready"><span class="dot"></span>Ready</span>
<p data-field="whose"></p>
<p>This device then shows your character, rolls your dice and follows the table, as you in Foundry.</p>
<button type="button" class="button" id="get-key">Get my key</button>
<p class="muted small">The invitation works once: after this, the link is used up.</p>
</div>
<div class="state" data-for="checking" hidden><span class="pill pill-ready"><span class="dot"></span>Checking your invitation…</span></div>
<div class="state" data-for="working" hidden><span class="pill pill-ready"><span class="dot"></span>Getting your key…</span></div>
<div class="state" data-for="done" hidden>
<span class="pill pill-done"><span class="dot"></span>Key received</span>
<h2>This browser keeps nothing for the page</h2>
<p>It may be a private tab. Paste the key and the relay's address into a tool now, or ask the GM for a new invitation and open it in an ordinary tab to use the player page.</p>
<p>You act as <strong data-field="userName"></strong> in <strong data-field="worldTitle"></strong>: you may read the world, roll dice and chat, with your own permissions in Foundry.</p>
${copyField('relay-url', 'Relay address', 'relayUrl')}
${copyField('api-key', 'API key', 'key')}
<p class="note"><strong>Copy the key now:</strong> this page shows it only once and the relay keeps only a hash of it. Lost it? Ask the GM for a new invitation.</p>
</div>
<div class="state" data-for="failed" hidden>
<span class="pill pill-failed"><span class="dot"></span>No key</span>
<p data-field="error"></p>
</div>
<div class="state" data-for="missing">
<span class="pill pill-missing"><span class="dot"></span>No invitation here</span>
<p>This page holds no invitation (it shows one only right after you open the link). Open the invitation link or scan the QR code from your GM again.</p>
</div>`,
  noReferrer: true,
});

/** The key's answer: shown once, so no cache may keep it. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** Both invitation calls are refused to other web pages and count against the address's tries, before any body. */
function admitInvitationCall(call: CallContext, services: RelayServices): void {
  refuseOtherPages(call, services, 'Invitations');
  services.invitations.admit(call.remoteAddress);
}

const invitationSecret = text()
  .max(200, { error: 'is too long' })
  .describe("The secret from the invitation link's fragment");

export const invitationPageRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: INVITATION_PAGE_PATH,
    summary:
      "The page a player's invitation link opens: it reads the secret from the link's fragment and trades it for a key",
    access: 'public',
    parameters: z.object({}),
    produces: 'text/html',
    handle: () => ({ kind: 'html', html: PAGE, headers: PAGE_HEADERS }),
  }),
  localRoute({
    method: 'POST',
    path: '/auth/invitation/status',
    summary:
      "Whether an invitation's secret is still open, and for whom, without using it: what the invitation page says before the player presses anything",
    access: 'public',
    admit: admitInvitationCall,
    from: 'body',
    parameters: z.object({ secret: invitationSecret }),
    handle: ({ parameters, services }) => {
      const { userName, worldTitle, clientId, expiresAt } = services.invitations.check(parameters.secret);
      const answer: InvitationCheck = {
        status: 'open',
        userName,
        ...(worldTitle ? { worldTitle } : {}),
        clientId,
        expiresAt,
      };
      return { body: answer, headers: NO_STORE };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/auth/invitation',
    summary:
      "Trade an invitation's secret, once, for an API key bound to the invited player in one world, with player scopes",
    access: 'public',
    admit: admitInvitationCall,
    from: 'body',
    parameters: z.object({ secret: invitationSecret }),
    handle: ({ parameters, call, services }) => {
      const exchanged = services.invitations.redeem(parameters.secret, (invitation) => {
        const { key, record } = services.keys.create({
          name: invitation.name,
          scopes: [...PLAYER_SCOPES],
          userId: invitation.userId,
          worldIds: [invitation.clientId],
          invitationId: invitation.id,
        });
        const answer: InvitationExchange = {
          relayUrl: call.relayOrigin,
          key,
          name: record.name,
          userName: invitation.userName,
          ...(invitation.worldTitle ? { worldTitle: invitation.worldTitle } : {}),
          clientId: invitation.clientId,
          scopes: record.scopes,
        };
        return { keyId: record.id, answer };
      });
      return { status: 201, body: exchanged.answer, headers: NO_STORE };
    },
  }),
];
