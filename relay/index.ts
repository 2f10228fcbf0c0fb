export { createRelay, DEFAULT_HOST, DEFAULT_PORT, type Relay, type RelayOptions } from './relay.ts';
export { SCOPES, DEFAULT_SCOPES, type Scope } from './auth/scopes.ts';
export { allRoutes } from './routes.ts';
export type { Route } from './routing/route.ts';
