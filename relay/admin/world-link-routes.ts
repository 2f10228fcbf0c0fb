import { z } from 'zod';
import { text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { WORLD_LINK_SCOPE } from '../auth/world-link.ts';
import { worldSocketUrl } from '../../contracts/world-protocol.ts';
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

/** "Connect a 2.x module": the only kind of key a world may connect with instead of its connection token. */
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
      });
      const answer: WorldLinkAnswer = { ...record, key, ...moduleSettings(services, key) };
      return { status: 201, body: answer };
    },
  }),
];
