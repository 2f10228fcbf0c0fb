import { z } from 'zod';
import { foundryAddress, text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { WORLD_LINK_SCOPE } from '../auth/world-link.ts';
import { worldSocketUrl } from '../../contracts/world-protocol.ts';
import { originOf } from '../gate/request-gate.ts';
import type { RelayServices } from '../services.ts';
import type { WorldLinkAnswer } from '../../contracts/admin-api.ts';

/** What the GM types into the 2.x module: its settings are world settings, set under Configure Settings. */
function moduleSettings(services: RelayServices, key: string) {
  return {
    settings: { 'foundry-rest-api.wsRelayUrl': worldSocketUrl(services.network.url()), 'foundry-rest-api.apiKey': key },
    lanRelayUrls: services.network.lanUrls().map(worldSocketUrl),
    steps:
      'In Foundry, as the GM: Game Settings → Configure Settings → Foundry REST API. Set the WebSocket relay URL and the ' +
      'API key to the values in settings (from another computer, use one of lanRelayUrls instead), save, and reload the world.',
  };
}

/**
 * "Connect a 2.x module": the only kind of key a world may connect with instead of its connection token. The module runs
 * in the Foundry page, so the key records that page's origin, which /relay then admits for the world.
 */
export const worldLinkRoutes: Route[] = [
  localRoute({
    method: 'POST',
    path: '/admin/world-links',
    summary:
      'Connect a 2.x module: a key that links this one world and grants nothing else; the key is in this answer only',
    access: 'admin',
    parameters: z.object({
      clientId: text()
        .max(200, { error: 'is at most 200 characters' })
        .describe("The id the 2.x module connects as: foundry- followed by the Foundry user id of the world's GM"),
      foundryUrl: foundryAddress().describe(
        'The address the GM opens Foundry at (e.g. http://localhost:30000): the module connects from that page',
      ),
      name: text()
        .max(100, { error: 'is at most 100 characters' })
        .optional()
        .describe('What the key is called in the list'),
    }),
    handle: ({ parameters, services }) => {
      const { key, record } = services.keys.create({
        name: parameters.name ?? `2.x module ${parameters.clientId}`,
        scopes: [WORLD_LINK_SCOPE],
        worldIds: [parameters.clientId],
        origin: originOf(parameters.foundryUrl),
      });
      const answer: WorldLinkAnswer = { ...record, key, ...moduleSettings(services, key) };
      return { status: 201, body: answer };
    },
  }),
];
