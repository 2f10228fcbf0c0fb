import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import type { Answer, CallContext } from '../routing/route.ts';
import { escapeHtml } from '../http/html.ts';

/** Opens the settings UI in a browser on this computer, once, within two minutes; the admin token never leaves the relay. */
export function adminLoginUrl(services: RelayServices): string {
  return `${services.network.url()}/admin/login?code=${services.adminSessions.issueLoginCode()}`;
}

export const HOW_TO_GET_A_LOGIN_LINK =
  'Get a new one: in the desktop app, choose Open settings… in the Tabletop Relay tray menu; with npm run serve, ' +
  'run npm run settings in the project folder on this computer. Each link works once, within two minutes.';

const HOW_TO_GET_A_LOGIN_LINK_HTML = `<p>Get a new one:</p>
<ul>
<li>in the desktop app, choose <strong>Open settings…</strong> in the Tabletop Relay tray menu;</li>
<li>with <code>npm run serve</code>, run <code>npm run settings</code> in the project folder on this computer.</li>
</ul>
<p class="muted">Each link works once, within two minutes.</p>`;

/** A whole page in the settings UI's own stylesheet (the admin pages' CSP allows no inline style or script). */
function refusedPage(status: 401 | 403, message: string): string {
  const body =
    status === 401
      ? `<p>This sign-in link was already used or has expired.</p>\n${HOW_TO_GET_A_LOGIN_LINK_HTML}`
      : `<p>${escapeHtml(message)}</p>`;
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
export function refuseLogin(call: CallContext, status: 401 | 403, message: string): Answer {
  if (!prefersHtml(call.header('accept'))) throw new HttpError(status, message);
  return { kind: 'html', status, html: refusedPage(status, message) };
}

/** Whether the Accept header ranks HTML above JSON: a browser's does; a script's, which accepts anything, or none does not. */
function prefersHtml(accept = '*/*'): boolean {
  return qualityOf('text/html', accept) > qualityOf('application/json', accept);
}

/** The quality the Accept header gives a media type: that of its most specific matching range. */
function qualityOf(mediaType: string, accept: string): number {
  const [type] = mediaType.split('/');
  let best = { specificity: -1, quality: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const specificity = range === mediaType ? 2 : range === `${type}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    best = { specificity, quality: Number.isFinite(quality) ? quality : 0 };
  }
  return best.quality;
}
