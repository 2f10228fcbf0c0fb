// The sandbox world: a simulated Foundry VTT world running the foundryvtt-rest-api module's protocol.
export { createSandboxWorld, type SandboxWorld, type SandboxWorldOptions } from './sandbox-world.ts';
export {
  connectSandbox,
  connectSandboxLegacy,
  relaySocketUrl,
  RelayConnectionError,
  type ConnectOptions,
  type LegacyConnectOptions,
  type SandboxLink,
} from './link.ts';
export { exchangePairingCode, pairSandbox, PairingError, type PairingResult, type PairOptions } from './pairing.ts';
export type { Simulation } from './simulate.ts';
export type { Game, ModuleSettings, RollEntry, SystemInfo } from './world/game.ts';
export type { WorldDocument } from './world/document.ts';
export type { DirectoryListing, FileStore } from './files/file-store.ts';
export { FileStoreError } from './files/file-store.ts';
export { memoryFileStore } from './files/memory-store.ts';
export { storePath, UnsafePathError } from './files/paths.ts';
