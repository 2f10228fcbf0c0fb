import { z } from 'zod';
import { optionalShownText, shownText, text, textList } from '../routing/parameters.ts';
import { localRoute, type Answer, type Route } from '../routing/route.ts';
import { knownScopes, knownToolsets } from '../auth/scope-list.ts';
import { refuseOtherPages } from '../routing/access.ts';
import type { KeyRequestPoll } from '../auth/key-requests.ts';
import type { RelayServices } from '../services.ts';

/** The settings UI page where the GM approves key requests; it opens only on the relay's own computer. */
export const KEY_REQUEST_APPROVAL_PAGE = '/admin/#keys';

const pollSecret = text()
  .max(100, { error: 'is too long' })
  .describe('The secret at the end of the pollUrl the request answered with (never the short code)');

/** Answers that hold a poll secret or a key: no cache (a proxy, a web tool's browser) may keep them. */
const NO_STORE = { 'Cache-Control': 'no-store' };

function pollAnswer(poll: KeyRequestPoll): Answer {
  return { status: poll.status === 'expired' ? 410 : 200, body: poll, headers: NO_STORE };
}

function poll(services: RelayServices, secret: string): Answer {
  return pollAnswer(services.keyRequests.poll(secret));
}

// A tool asks for a key with the scopes it needs; the GM approves it in Tabletop Relay; the tool collects the key once
// with the secret only it was given. None of these takes a key: the GM's approval is what authorises the tool.
export const keyRequestRoutes: Route[] = [
  localRoute({
    method: 'POST',
    path: '/auth/key-request',
    summary:
      "A tool asks for an API key; it shows its user the short code, the GM approves it in Tabletop Relay's settings, and the tool polls pollUrl to collect the key once",
    access: 'public',
    admit: (call, services) => {
      refuseOtherPages(call, services, 'Key requests');
      services.keyRequests.admit(call.remoteAddress);
    },
    from: 'body',
    parameters: z
      .object({
        appName: shownText(100).describe('The tool\'s name, shown to the GM and given to the key, e.g. "Stream Deck"'),
        scopes: knownScopes()
          .default([])
          .describe(
            'The scopes the tool needs (execute-js and world:link are shown to the GM with a warning); the GM may grant fewer',
          ),
        toolsets: textList()
          .pipe(knownToolsets())
          .optional()
          .describe(
            "An AI assistant's request: the toolsets it wants over /mcp (play, prepare, dnd5e, files, delete, scripts), instead of scopes; the GM picks among them",
          ),
        appDescription: shownText(500).optional().describe('What the tool does with the key, shown to the GM'),
        appUrl: optionalShownText(500)
          .pipe(
            z
              .string()
              .regex(/^https?:\/\/\S+$/, { error: 'must be an http or https URL' })
              .optional(),
          )
          .describe("The tool's home page, shown to the GM"),
        userId: optionalShownText(200).describe('The tabletop user (id or name) the key should act as'),
        clientIds: textList()
          .pipe(z.array(shownText(200)).max(20, { error: 'lists at most 20 worlds' }))
          .default([])
          .describe('The worlds (client ids) the key should reach; none asks for every world'),
      })
      .refine((ask) => ask.scopes.length > 0 || (ask.toolsets?.length ?? 0) > 0, {
        error: "'scopes' must name at least one scope",
        path: ['scopes'],
      }),
    handle: ({ parameters, services, call }) => {
      const { request, secret } = services.keyRequests.request(parameters, call.remoteAddress);
      return {
        status: 201,
        body: {
          code: request.code,
          pollUrl: `${call.relayOrigin}/auth/key-request/${secret}`,
          interval: services.keyRequests.pollIntervalMs / 1000,
          expiresIn: Math.round((request.expiresAt - request.createdAt) / 1000),
          expiresAt: new Date(request.expiresAt).toISOString(),
          approvalUrl: `${services.network.url()}${KEY_REQUEST_APPROVAL_PAGE}`,
        },
        headers: NO_STORE,
      };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/auth/key-request/{secret}',
    summary:
      'Poll a key request (at most every `interval` seconds, 429 otherwise): pending (with its code), approved (with apiKey, once), denied (once), or 410 expired; afterwards 404',
    access: 'public',
    parameters: z.object({ secret: pollSecret }),
    handle: ({ parameters, services }) => poll(services, parameters.secret),
  }),
  localRoute({
    method: 'GET',
    path: '/auth/key-request/{secret}/status',
    summary: "The same poll under the reference relay's path, for tools written for it (with the pollUrl's secret)",
    access: 'public',
    parameters: z.object({ secret: pollSecret }),
    handle: ({ parameters, services }) => poll(services, parameters.secret),
  }),
];
