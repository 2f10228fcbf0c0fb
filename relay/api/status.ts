import { z } from 'zod';
import { localRoute, type Route } from '../routing/route.ts';
import { pairPageRoutes } from './pair-page.ts';
import { RELAY_VERSION } from '../version.ts';

export const statusRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/api/status',
    summary: 'Whether the relay runs, its version and where worlds connect',
    access: 'public',
    parameters: z.object({}),
    handle: () => ({ body: { status: 'ok', version: RELAY_VERSION, websocket: '/relay' } }),
  }),
  ...pairPageRoutes,
];
