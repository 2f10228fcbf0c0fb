import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import type { DeniedAddressAnswer } from '../../contracts/admin-api.ts';

const address = text().max(100, { error: 'is too long' }).describe('An IP address, e.g. 192.168.1.20');

/**
 * "Deny every request from this address": the pair and key requests waiting from it are denied, and new ones are refused
 * (403) until the GM allows it again or the relay restarts. Kept in memory only (`RequestSources`).
 */
export const deniedAddressRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/denied-addresses',
    summary: 'Addresses whose pair and key requests are refused, until allowed again or the relay restarts',
    access: 'admin',
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { addresses: services.requestSources.deniedAddresses() } }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/denied-addresses',
    summary:
      'Deny every request from an address: its waiting pair and key requests are denied, new ones refused (403) until allowed again or the relay restarts; this computer cannot be denied (400)',
    access: 'admin',
    parameters: z.object({ address }),
    handle: ({ parameters, services }) => {
      const denied = services.requestSources.deny(parameters.address);
      const body: DeniedAddressAnswer = {
        address: denied,
        pairRequestsDenied: services.pairing.denyAllFrom(denied),
        keyRequestsDenied: services.keyRequests.denyAllFrom(denied),
      };
      return { status: 201, body };
    },
  }),
  localRoute({
    method: 'DELETE',
    path: '/admin/denied-addresses/{address}',
    summary: 'Take requests from a denied address again',
    access: 'admin',
    parameters: z.object({ address }),
    handle: ({ parameters, services }) => {
      if (!services.requestSources.allow(parameters.address)) {
        throw new HttpError(404, 'This address is not denied; GET /admin/denied-addresses lists those that are');
      }
      return { body: { allowed: true } };
    },
  }),
];
