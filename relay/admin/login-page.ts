import type { Request, Response } from 'express';
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import { escapeHtml } from '../http/html.ts';

/** Opens the settings UI in a browser on this computer, once, within two minutes; the admin token never leaves the relay. */
export function adminLoginUrl(services: RelayServices): string {
  return `${services.network.url()}/admin/login?code=${services.adminSessions.issueLoginCode()}`;
}

export const HOW_TO_GET_A_LOGIN_LINK =
  'Get a new one: in the desktop app, choose Open settings… in the Tabletop Relay tray menu; with npm run serve, '
  + 'run npm run settings in the project folder on this computer. Each link works once, within two minutes.';

const HOW_TO_GET_A_LOGIN_LINK_HTML = `<p>Get a new one:</p>
<ul>
<li>in the desktop app, choose <strong>Open settings…</strong> in the Tabletop Relay tray menu;</li>
<li>with <code>npm run serve</code>, run <code>npm run settings</code> in the project folder on this computer.</li>
</ul>
<p class="muted">Each link works once, within two minutes.</p>`;

/** A whole page in the settings UI's own stylesheet (the admin pages' CSP allows no inline style or script). */
function refusedPage(status: 401 | 403, message: string): string {
  const body = status === 401 ? `<p>This sign-in link was already used or has expired.</p>\n${HOW_TO_GET_A_LOGIN_LINK_HTML}` : `<p>${escapeHtml(message)}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in link not valid · Tabletop Relay</title>
<link rel="stylesheet" href="/admin/styles.css">
</head>
<body>
<main class="login-refused">
<section class="card">
<div class="card-header"><h1>Sign-in link not valid</h1></div>
${body}
</section>
</main>
</body>
</html>
`;
}

/**
 * A refused admin link: a page a person can read when a browser opened it, the usual JSON error for scripts. Nothing
 * else differs, so the link keeps its rules (loopback only, single use) whatever the caller accepts.
 */
export function refuseLogin(request: Request, response: Response, status: 401 | 403, message: string): { body: undefined } {
  if (request.accepts(['json', 'html']) !== 'html') throw new HttpError(status, message);
  response.status(status).type('html').send(refusedPage(status, message));
  return { body: undefined };
}
