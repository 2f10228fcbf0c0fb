import { z } from 'zod';
import { flag, text, worldText } from '../routing/parameters.ts';
import { localRoute, type CallContext, type Route } from '../routing/route.ts';
import { HttpError } from '../errors.ts';
import { originOf } from '../gate/request-gate.ts';
import { pageOriginOf, type PairingCaller } from '../auth/pairing.ts';
import { worldSocketUrl } from '../../contracts/world-protocol.ts';

const optionalText = () => z.string({ error: 'must be a string' }).max(500, { error: 'is too long' }).optional();
/** What a world says about itself, which the GM reads on the request's card and in the paired worlds. */
const worldField = () => worldText(500).optional();
const worldId = () => worldText(200).refine((value) => value !== '', { error: 'must not be empty' });

/** The caller as the pairing counters tell callers apart: its address and the page that sent the call. */
export function pairingCaller(call: CallContext): PairingCaller {
  return { address: call.remoteAddress, origin: pageOriginOf(call.header('origin')) };
}

// The endpoints the unmodified module calls while pairing (module-protocol.md §3.3–§3.5). They take no key: the GM's
// approval in the tray (or the admin API) is what authorises a world.
export const pairingRoutes: Route[] = [
  localRoute({
    method: 'POST',
    path: '/auth/pair-request',
    summary:
      'A world asks to pair; the GM approves it in Tabletop Relay (the same world asking again gets its waiting request)',
    access: 'public',
    admit: (call, services) => services.pairing.admitRequest(pairingCaller(call)),
    from: 'body',
    parameters: z.object({
      worldId: worldId(),
      worldTitle: worldField(),
      systemId: worldField(),
      systemTitle: worldField(),
      systemVersion: worldField(),
      foundryVersion: worldField(),
      serverFingerprint: optionalText(),
      clientId: optionalText(),
      upgradeOnly: flag().default(false),
    }),
    handle: ({ parameters: { upgradeOnly, ...world }, services, call }) => {
      const { request: pairRequest, created } = services.pairing.request(world, {
        upgradeOnly,
        caller: pairingCaller(call),
      });
      return {
        status: created ? 201 : 200,
        body: {
          code: pairRequest.code,
          pairUrl: `${call.relayOrigin}/pair/${pairRequest.code}`,
          upgradeOnly,
          expiresIn: Math.round((pairRequest.expiresAt - pairRequest.createdAt) / 1000),
          expiresAt: new Date(pairRequest.expiresAt).toISOString(),
        },
      };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/auth/pair-request/{code}/status',
    summary: 'Whether the GM approved a pair request; an approval carries the pairing code once',
    access: 'public',
    parameters: z.object({ code: text().describe('The pair request code') }),
    handle: ({ parameters, services }) => {
      const pairRequest = services.pairing.poll(parameters.code);
      const body: Record<string, unknown> = { status: pairRequest.status };
      if (pairRequest.status === 'approved') {
        if (pairRequest.upgradeOnly) body.upgraded = true;
        else body.pairingCode = pairRequest.pairingCode;
      }
      return { status: pairRequest.status === 'expired' ? 410 : 200, body };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/auth/pair',
    summary: 'Exchange a pairing code for a connection token',
    access: 'public',
    admit: (call, services) => services.pairing.admitCodeAttempt(pairingCaller(call)),
    from: 'body',
    parameters: z.object({
      code: text().max(20, { error: 'is too long' }),
      worldId: worldField(),
      worldTitle: worldField(),
      serverFingerprint: optionalText(),
      existingClientId: optionalText(),
      serverOrigin: optionalText(),
    }),
    headers: z.object({
      origin: z.string().optional().describe('The page that pairs, as its browser sends it; serverOrigin when absent'),
      'user-agent': z.string().optional().describe('The browser that pairs, shown with its connection token'),
    }),
    handle: ({ parameters, headers, services, call }) => {
      const pageOrigin = originOf(headers.origin) ?? originOf(parameters.serverOrigin);
      const exchange = { ...parameters, userAgent: headers['user-agent'], origin: pageOrigin };
      const { token, clientId } = services.pairing.exchange(exchange, pairingCaller(call));
      const relayUrl = worldSocketUrl(call.relayOrigin);
      return { body: { token, clientId, relayUrl } };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/api/clients/{clientId}/active',
    summary: 'Whether a paired world is connected right now',
    access: 'public',
    parameters: z.object({ clientId: text().describe('The world') }),
    handle: ({ parameters: { clientId }, services }) => {
      if (!services.knownWorlds.get(clientId) && !services.tabletop.world(clientId)) {
        throw new HttpError(404, 'Unknown clientId');
      }
      return { body: { active: services.tabletop.world(clientId) !== undefined } };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/api/self-unpair',
    summary: 'A browser forgets its connection token; the relay revokes it',
    access: 'public',
    from: 'body',
    parameters: z.object({ token: text().max(200, { error: 'is too long' }) }),
    handle: ({ parameters, services }) => {
      const revoked = services.connectionTokens.revokeToken(parameters.token);
      if (revoked) services.tabletop.disconnectToken(revoked.id, 'Unpaired by owner');
      return { body: { success: true } };
    },
  }),
];
