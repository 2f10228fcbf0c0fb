export { createRelay, DEFAULT_HOST, DEFAULT_PORT, type Relay, type RelayOptions } from './relay.ts';
export { SCOPES, DEFAULT_SCOPES, type Scope } from './auth/scopes.ts';
export { allRoutes } from './api/index.ts';
export type { Route } from './api/route.ts';
