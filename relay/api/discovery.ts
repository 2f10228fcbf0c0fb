import { z } from 'zod';
import { localRoute, type Route } from '../routing/route.ts';
import type { CallContext } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';
import { isLoopback } from '../gate/addresses.ts';
import { PRODUCT_NAME, RELAY_PATHS, SERVICE_TYPE, WELL_KNOWN_PATH } from '../discovery/facts.ts';
import { lanInterfaces, onNetworkOf } from '../discovery/lan-interfaces.ts';
import { RELAY_VERSION } from '../version.ts';

/**
 * The relay's LAN URLs a caller may be told: all of them on this computer (the settings UI shows them too); on the LAN,
 * only those on the caller's own network, so a stranger there learns no address the computer has on another one.
 */
function lanUrlsFor(call: CallContext, services: RelayServices): string[] {
  const urls = services.network.lanUrls();
  if (isLoopback(call.remoteAddress)) return urls;
  const callersNetworks = lanInterfaces().filter((lanInterface) => onNetworkOf(lanInterface, call.remoteAddress));
  return urls.filter((url) => callersNetworks.some((lanInterface) => new URL(url).hostname === lanInterface.address));
}

export const discoveryRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: WELL_KNOWN_PATH,
    summary:
      'What a tool that has the relay’s address needs first: version, API and documentation paths, sockets, LAN access, and how to ask for a key',
    access: 'public',
    parameters: z.object({}),
    handle: ({ call, services }) => ({
      body: {
        product: PRODUCT_NAME,
        version: RELAY_VERSION,
        api: RELAY_PATHS.api,
        docs: RELAY_PATHS.docs,
        openapi: RELAY_PATHS.openapi,
        websockets: { api: RELAY_PATHS.callerApi, world: RELAY_PATHS.world },
        auth: {
          header: 'x-api-key',
          keyRequest: { method: 'POST', path: RELAY_PATHS.keyRequest },
        },
        lan: {
          access: services.network.lanAccess(),
          urls: lanUrlsFor(call, services),
          dnsSd: SERVICE_TYPE,
        },
        paused: services.network.paused(),
      },
    }),
  }),
];
