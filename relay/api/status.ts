import { z } from 'zod';
import { localRoute, type Route } from '../routing/route.ts';
import { pairPageRoutes } from './pair-page.ts';
import { RELAY_INSTANCE_ID, RELAY_VERSION } from '../version.ts';

export const statusRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/api/status',
    summary: 'Whether the relay runs, its version and where worlds connect',
    access: 'public',
    parameters: z.object({}),
    handle: () => ({ body: { status: 'ok', version: RELAY_VERSION, websocket: '/relay' } }),
  }),
  localRoute({
    method: 'GET',
    path: '/api/health',
    summary: 'Whether the relay runs, as the reference relay answers health checks',
    access: 'public',
    parameters: z.object({}),
    handle: () => ({
      body: {
        status: 'ok',
        timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        instanceId: RELAY_INSTANCE_ID,
      },
    }),
  }),
  ...pairPageRoutes,
];
