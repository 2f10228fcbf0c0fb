import { z } from 'zod';
import { flag, text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { HttpError } from '../errors.ts';
import { originOf } from '../http/request-gate.ts';
import { worldSocketUrl } from '../../contracts/world-protocol.ts';
import { normalisedAddress } from '../http/addresses.ts';
import type { Request } from 'express';

const optionalText = () => z.string({ error: 'must be a string' }).max(500, { error: 'is too long' }).optional();

function origin(request: Request): string {
  return `${request.protocol}://${request.get('host') ?? 'localhost'}`;
}

function sourceOf(request: Request): string {
  return normalisedAddress(request.socket.remoteAddress);
}

// The endpoints the unmodified module calls while pairing (module-protocol.md §3.3–§3.5). They take no key: the GM's
// approval in the tray (or the admin API) is what authorises a world.
export const pairingRoutes: Route[] = [
  localRoute({
    method: 'POST',
    path: '/auth/pair-request',
    summary: 'A world asks to pair; the GM approves it in Tabletop Relay (the same world asking again gets its waiting request)',
    access: 'public',
    from: 'body',
    parameters: z.object({
      worldId: text().max(200, { error: 'is too long' }),
      worldTitle: optionalText(),
      systemId: optionalText(),
      systemTitle: optionalText(),
      systemVersion: optionalText(),
      foundryVersion: optionalText(),
      serverFingerprint: optionalText(),
      clientId: optionalText(),
      upgradeOnly: flag().default(false),
    }),
    handle: ({ parameters: { upgradeOnly, ...world }, services, request }) => {
      const { request: pairRequest, created } = services.pairing.request(world, { upgradeOnly, source: sourceOf(request) });
      return {
        status: created ? 201 : 200,
        body: {
          code: pairRequest.code,
          pairUrl: `${origin(request)}/pair/${pairRequest.code}`,
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
    parameters: z.object({}),
    handle: ({ request, services }) => {
      const pairRequest = services.pairing.poll(String(request.params.code), sourceOf(request));
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
    from: 'body',
    parameters: z.object({
      code: text().max(20, { error: 'is too long' }),
      worldId: optionalText(),
      worldTitle: optionalText(),
      serverFingerprint: optionalText(),
      existingClientId: optionalText(),
      serverOrigin: optionalText(),
    }),
    handle: ({ parameters, services, request }) => {
      const pageOrigin = originOf(request.get('origin')) ?? originOf(parameters.serverOrigin);
      const exchange = { ...parameters, userAgent: request.get('user-agent'), origin: pageOrigin };
      const { token, clientId } = services.pairing.exchange(exchange, sourceOf(request));
      const relayUrl = worldSocketUrl(origin(request));
      return { body: { token, clientId, relayUrl } };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/api/clients/{clientId}/active',
    summary: 'Whether a paired world is connected right now',
    access: 'public',
    parameters: z.object({}),
    handle: ({ request, services }) => {
      const clientId = String(request.params.clientId);
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
