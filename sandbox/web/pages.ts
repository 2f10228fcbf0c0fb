// The HTML of the web client's two pages: the login page (user list and password, as Foundry's /join) and the game page.
import type { Flavour } from './flavour.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function loginPage(worldTitle: string, users: { id: string; name: string }[]): string {
  const options = users
    .map((user) => `<option value="${escapeHtml(user.id)}">${escapeHtml(user.name)}</option>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(worldTitle)} · Join</title>
<style>body{font-family:sans-serif;background:#2b2a29;color:#eee;display:flex;justify-content:center;padding-top:10vh}
form{background:#1b1a19;padding:24px;border-radius:8px;display:grid;gap:12px;min-width:280px}</style></head>
<body><form id="join-game" method="post" action="/join">
<h2>${escapeHtml(worldTitle)}</h2>
<label>User <select name="userid"><option value=""></option>${options}</select></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label>
<button type="submit" name="join">Join Game Session</button>
</form>
<script>
document.getElementById('join-game').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  const response = await fetch('/join', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'join', userid: form.userid.value, password: form.password.value }) });
  const answer = await response.json();
  if (answer.status === 'success') location.href = answer.redirect; else alert(answer.error);
});
</script></body></html>`;
}

/**
 * Foundry 14's administrator page, which Foundry shows at `/auth` instead of /join while no world is launched. The
 * sandbox posts JSON like its /join page does, and the accepted password launches the world.
 */
export function adminPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Foundry Virtual Tabletop · Administrator Access</title>
<style>body{font-family:sans-serif;background:#2b2a29;color:#eee;display:flex;justify-content:center;padding-top:10vh}
form{background:#1b1a19;padding:24px;border-radius:8px;display:grid;gap:12px;min-width:280px}</style></head>
<body><form id="setup-authentication" method="post" action="/auth">
<h2>Administrator Access</h2>
<label>Administrator Password <input type="password" name="adminPassword" autocomplete="current-password"></label>
<button type="submit" name="action" value="adminAuth">Log In</button>
</form>
<script>
document.getElementById('setup-authentication').addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await fetch('/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'adminAuth', adminPassword: event.target.adminPassword.value }) });
  const answer = await response.json();
  if (answer.status === 'success') location.href = answer.redirect; else alert(answer.error);
});
</script></body></html>`;
}

export function gamePage(config: object, flavour: Flavour, systemId: string): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Foundry Virtual Tabletop (sandbox ${flavour})</title>
<link rel="stylesheet" href="/css/sandbox-sheet.css"></head>
<body class="vtt game system-${escapeHtml(systemId)} sandbox-${flavour}">
<div id="ui-left"></div><div id="sidebar"></div>
<script id="sandbox-config" type="application/json">${json}</script>
<script type="module" src="/sandbox/game.js"></script>
</body></html>`;
}
