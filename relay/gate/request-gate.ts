// The first checks on every HTTP request and WebSocket upgrade: the name the caller addressed (Host, against DNS
// rebinding) and, for WebSockets, the web page that opens them (Origin).
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Settings } from '../storage/settings.ts';
import { currentAddresses } from './interfaces.ts';

/** What decides which names the relay answers to. */
interface HostContext {
  network: { url(): string; lanAccess(): boolean };
  settings: Pick<Settings, 'get' | 'on'>;
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** The host name of a Host header, lower-case and without port (IPv6 in brackets); undefined if it is not one. */
function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    const url = new URL(`http://${host}`);
    const onlyHost =
      url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
    return onlyHost ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the relay answers to this host name: its loopback names, its LAN addresses while LAN access is on, or a name the GM added. */
function isRelayHostname(hostname: string, context: HostContext): boolean {
  if (LOOPBACK_NAMES.has(hostname) || LOOPBACK_IPV4.test(hostname)) return true;
  if (hostname === new URL(context.network.url()).hostname) return true;
  if (context.settings.get().allowedHosts.includes(hostname)) return true;
  return context.network.lanAccess() && lanHostnames().includes(hostname);
}

function lanHostnames(): string[] {
  return currentAddresses()
    .filter((address) => !address.internal)
    .map((address) => (address.family === 'IPv6' ? `[${address.address}]` : address.address));
}

/** The 421 message for a request addressed to a name the relay does not answer to, or undefined when the name is fine. */
function hostRefusal(request: IncomingMessage, context: HostContext): string | undefined {
  const hostname = hostnameOf(request.headers.host);
  if (hostname === undefined) return 'The request has no valid Host header';
  if (isRelayHostname(hostname, context)) return undefined;
  return (
    `Tabletop Relay does not answer to the name "${hostname}" (a guard against DNS rebinding). If you reach it by this name ` +
    'on purpose, add it under Access → Allowed host names in the settings, or PATCH /admin/settings with "allowedHosts".'
  );
}

const REMEMBERED_HOSTS = 64;

/**
 * The first check of every request: the 421 message for a request addressed to a name the relay does not answer to,
 * or undefined when the name is fine.
 */
export function hostGate(context: HostContext): (request: IncomingMessage) => string | undefined {
  // Host headers found good, so that the usual request costs one lookup instead of a URL parse; which names are good
  // depends on the settings alone (allowed names, LAN access, port), so a change of settings forgets them.
  const good = new Set<string>();
  context.settings.on('changed', () => good.clear());
  return (request) => {
    const host = request.headers.host;
    if (host !== undefined && good.has(host)) return undefined;
    const refusal = hostRefusal(request, context);
    if (refusal === undefined && host !== undefined && good.size < REMEMBERED_HOSTS) good.add(host);
    return refusal;
  };
}

/** The origin of a URL or Origin header (scheme, host, port), or undefined when it is not an http(s) origin. */
export function originOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a page's origin is the relay itself: one of the names it answers to, on the port the request came in on. */
export function isRelayOrigin(origin: string, request: IncomingMessage, context: HostContext): boolean {
  const parsed = originOf(origin);
  if (parsed === undefined) return false;
  const url = new URL(parsed);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return port === String(request.socket.localPort) && isRelayHostname(url.hostname, context);
}

/** Whether the GM's allowed origins (`corsOrigins`, where "*" is any) admit this page. */
export function corsAllows(corsOrigins: readonly string[], origin: string): boolean {
  return corsOrigins.includes('*') || corsOrigins.includes(origin);
}

/** A page a world connects from, as /relay knows it: the origin recorded with a connection token or a 2.x link key. */
interface WorldPage {
  clientId: string;
  origin?: string;
  /** How a connection token came to be; a link key has none. */
  source?: string;
}

/**
 * Whether a page of this origin may open /relay for a world: an allowed origin, or the origin a credential of that world
 * was made for (the page a token was paired from, its GM session's Foundry URL, a 2.x link key's Foundry address). A
 * token paired before origins were recorded admits any page, so that existing pairings keep working.
 */
export function worldOriginAllowed(
  origin: string,
  clientId: string,
  corsOrigins: readonly string[],
  pages: readonly WorldPage[],
): boolean {
  if (corsAllows(corsOrigins, origin)) return true;
  return pages.some(
    (page) =>
      page.clientId === clientId &&
      (page.origin === origin || (page.origin === undefined && page.source === 'pairing')),
  );
}

/** Answers an upgrade request with an HTTP error instead of a WebSocket. */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** First check of every upgrade: true when it was refused (421) for the name it was addressed to. */
export function refusedUpgradeHost(request: IncomingMessage, socket: Duplex, context: HostContext): boolean {
  const refusal = hostRefusal(request, context);
  if (refusal !== undefined) refuseUpgrade(socket, 421, refusal);
  return refusal !== undefined;
}
