// The client core the deck integrations share (Elgato's plugin, Companion's module): plain TypeScript on Node's fetch.
export * from './log.ts';
export * from './relay-client.ts';
export * from './event-stream.ts';
export * from './world-state.ts';
export * from './key-request.ts';
export * from './actions.ts';
