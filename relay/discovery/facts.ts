import { RELAY_VERSION } from '../version.ts';

export const PRODUCT_NAME = 'Tabletop Relay';

/** The DNS-SD service type the relay is advertised under while LAN access is on. */
export const SERVICE_TYPE = '_tabletop-relay._tcp';

/** Where a tool that has the relay's address reads what the advertisement says, and more. */
export const WELL_KNOWN_PATH = '/.well-known/tabletop-relay';

/** The paths a tool needs first: the same in the advertisement's TXT record and the well-known document. */
export const RELAY_PATHS = {
  api: '/',
  docs: '/docs',
  openapi: '/openapi.json',
  wellKnown: WELL_KNOWN_PATH,
  callerApi: '/ws/api',
  world: '/relay',
  keyRequest: '/auth/key-request',
} as const;

/** The TXT record's strings (RFC 6763 §6): the format's version first, then the relay's version and paths. */
export function txtRecord(): string[] {
  return [
    'txtvers=1',
    `version=${RELAY_VERSION}`,
    `api=${RELAY_PATHS.api}`,
    `docs=${RELAY_PATHS.docs}`,
    `openapi=${RELAY_PATHS.openapi}`,
    `wellknown=${RELAY_PATHS.wellKnown}`,
  ];
}
