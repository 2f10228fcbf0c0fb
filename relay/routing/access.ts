import type { IncomingHttpHeaders } from 'node:http';
import { KEY_PREFIX, type ApiKeyRecord } from '../auth/api-keys.ts';
import { OVERLAY_LINK_PREFIX, type OverlayLinkRecord } from '../auth/overlay-links.ts';
import type { Scope } from '../auth/scopes.ts';
import { OVERLAYS, type OverlayName } from '../../contracts/overlays.ts';
import { sameSecret } from '../auth/secrets.ts';
import type { CallContext } from './route.ts';
import type { RelayServices } from '../services.ts';
import { HttpError } from '../errors.ts';
import { ADMIN_COOKIE, cookieValues } from '../auth/admin-sessions.ts';
import { isLoopback } from '../gate/addresses.ts';
import { corsAllows } from '../gate/request-gate.ts';

/**
 * The API key a request presents: its `x-api-key` header, or else `Authorization: Bearer ttr_…`, as MCP clients and many
 * HTTP plugins send one. Only a value shaped like a key counts from Authorization, where the admin token goes too: the
 * admin token is never taken for a key, and a key never opens the admin API (`checkAdminCredentials`).
 */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const bearer = bearerOf(headers.authorization);
  return bearer.startsWith(KEY_PREFIX) ? bearer : undefined;
}

function bearerOf(authorization: string | undefined): string {
  return authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
}

/** Starts with the reference relay's words, which its clients match, and says how to send a key. */
const KEY_REQUIRED = 'API key is required: send it in the x-api-key header, or as Authorization: Bearer <key>';

/** The key a caller presented (`presentedKey`); none, or one the relay does not know, is the 401 that says so. */
export function verifiedKey(presented: unknown, services: RelayServices): ApiKeyRecord {
  if (typeof presented !== 'string' || presented === '') {
    throw new HttpError(401, KEY_REQUIRED);
  }
  const key = services.keys.verify(presented);
  if (!key) throw new HttpError(401, presented.startsWith(OVERLAY_LINK_PREFIX) ? LINK_AS_KEY : 'Invalid API key');
  return key;
}

const LINK_AS_KEY =
  'This is an overlay link, not an API key: an overlay link only opens its overlay (/overlays/<name>?link=…). Make an API key in the settings UI for anything else';

/** The reference relay's 403, byte for byte; the scope's name also goes out alone as the X-Required-Scope header. */
export function requireScope(key: ApiKeyRecord, scope: Scope): void {
  if (!key.scopes.includes(scope))
    throw new HttpError(403, `API key lacks required scope: ${scope}`, undefined, { 'X-Required-Scope': scope });
}

/**
 * The overlay link a caller presented (the query's `link`, HTTP only), checked against the overlay of the route: a link
 * opens its own overlay's routes and no other.
 */
export function verifiedLink(presented: unknown, overlay: OverlayName, services: RelayServices): OverlayLinkRecord {
  if (typeof presented !== 'string' || presented === '') {
    throw new HttpError(
      401,
      'Overlay link is required: open the overlay with the URL the settings UI gave you (Overlays), which ends in ?link=…',
    );
  }
  const link = services.overlayLinks.verify(presented);
  if (!link) {
    throw new HttpError(
      401,
      "Invalid overlay link: it was revoked or replaced. Copy the overlay's URL again from the settings UI (Overlays)",
    );
  }
  if (link.overlay !== overlay) {
    throw new HttpError(
      403,
      `This overlay link is for the ${OVERLAYS[link.overlay].title} overlay (/overlays/${link.overlay}), not for ${overlay}`,
    );
  }
  return link;
}

const KEYS_OF_LINKS = new WeakMap<OverlayLinkRecord, ApiKeyRecord>();

/**
 * The API key an overlay link acts as once it opened its route: its overlay's read-only scopes, its world and its user,
 * so that pause, the rate limit, the world and user bindings, the stream cap and the activity log treat it as any key.
 */
export function keyOfLink(link: OverlayLinkRecord): ApiKeyRecord {
  let key = KEYS_OF_LINKS.get(link);
  if (key) return key;
  key = {
    id: link.id,
    name: `Overlay link "${link.name}"`,
    hash: link.hash,
    prefix: link.prefix,
    scopes: OVERLAYS[link.overlay].scopes as Scope[],
    ...(link.userId ? { userId: link.userId } : {}),
    worldIds: [link.clientId],
    createdAt: link.createdAt,
  };
  KEYS_OF_LINKS.set(link, key);
  return key;
}

/**
 * A public route that makes something (a key request, a key from an invitation) is refused to a web page of another
 * origin than the relay's own or one the GM allowed: every page in the GM's browser calls from this computer's
 * address, as its local tools do, and a page's form needs no permission to post. Tools send no `Origin`.
 */
export function refuseOtherPages(call: CallContext, services: RelayServices, what: string): void {
  const origin = call.header('origin');
  if (origin === undefined || origin === call.relayOrigin) return;
  if (corsAllows(services.settings.get().corsOrigins, origin)) return;
  throw new HttpError(
    403,
    `${what} from other web pages are refused (${origin}); a tool sends no Origin, and a web tool's origin must be allowed in the settings UI (Access → Browser access)`,
  );
}

/** What the admin check looks at besides the headers: a change must not take parameters from the query string. */
export interface AdminCall {
  method: string;
  call: CallContext;
  hasQuery: boolean;
}

/**
 * The admin API takes the admin token (scripts, the tray) or a settings UI session cookie (a local browser). A browser
 * page of another origin (even another port of this computer, which counts as the same site for cookies) is refused,
 * and changes take a JSON body only, so neither a form nor a simple cross-origin fetch can make one.
 */
export function checkAdmin({ method, call, hasQuery }: AdminCall, services: RelayServices): void {
  if (!isLoopback(call.remoteAddress)) {
    throw new HttpError(403, 'The admin API answers only on this computer (loopback)');
  }
  refuseOtherOrigins(call);
  checkAdminCredentials(call, services);
  if (method !== 'GET') requireJsonChange(call, hasQuery);
}

/** Whether the caller's browser holds a settings session: any `ttr_admin` cookie it sends that the relay issued. */
export function holdsAdminSession(call: CallContext, services: RelayServices): boolean {
  const sessions = cookieValues(call.header('cookie'), ADMIN_COOKIE);
  return sessions.some((session) => services.adminSessions.isSession(session));
}

function checkAdminCredentials(call: CallContext, services: RelayServices): void {
  if (holdsAdminSession(call, services)) return;
  const token = bearerOf(call.header('authorization'));
  if (token === '') throw new HttpError(401, 'Admin token is required: send it as Authorization: Bearer <token>');
  if (token.startsWith(KEY_PREFIX)) throw new HttpError(401, KEY_AS_ADMIN_TOKEN);
  if (!sameSecret(token, services.adminToken)) throw new HttpError(401, 'Invalid admin token');
}

const KEY_AS_ADMIN_TOKEN =
  'This is an API key: the admin API takes the admin token (the file admin-token in the data directory) or a settings session, never a key';

const SAME_ORIGIN_FETCH_SITES = ['same-origin', 'none'];

/** Browsers say where a request comes from (`Origin`, `Sec-Fetch-Site`); scripts and the tray send neither. */
function refuseOtherOrigins(call: CallContext): void {
  const origin = call.header('origin');
  const ownOrigin = call.relayOrigin;
  if (origin !== undefined && origin !== ownOrigin) {
    throw new HttpError(
      403,
      `The admin API refuses calls from other web pages (${origin}): use the settings UI at ${ownOrigin}/admin/`,
    );
  }
  const site = call.header('sec-fetch-site');
  if (site !== undefined && !SAME_ORIGIN_FETCH_SITES.includes(site)) {
    throw new HttpError(
      403,
      `The admin API refuses calls from other web pages (Sec-Fetch-Site: ${site}): use the settings UI at ${ownOrigin}/admin/`,
    );
  }
}

/** A change's parameters come from a JSON body (application/json) and never from the query string. */
function requireJsonChange(call: CallContext, hasQuery: boolean): void {
  const contentType = call.header('content-type');
  const hasBody =
    contentType !== undefined ||
    call.header('transfer-encoding') !== undefined ||
    Number(call.header('content-length') ?? 0) > 0;
  if (hasBody && !isJson(contentType)) {
    throw new HttpError(415, 'Admin changes take a JSON body: send it with Content-Type: application/json');
  }
  if (hasQuery)
    throw new HttpError(400, 'Admin changes take their parameters from the JSON body, not the query string');
}

function isJson(contentType: string | undefined): boolean {
  const mimeType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mimeType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mimeType);
}
