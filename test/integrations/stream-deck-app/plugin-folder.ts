// How the Stream Deck app reads an installed plugin's folder before it starts it
// (https://docs.elgato.com/streamdeck/sdk/references/manifest): the folder is `<UUID>.sdPlugin`, its manifest.json names
// the entry point (CodePath, or CodePathWin / CodePathMac on that system) and, for a Node.js plugin, the Node.js
// version the app runs it with ("20", or "24" from Stream Deck 7.1 on).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ManifestAction, PluginManifest } from './protocol.ts';

/** The Node.js versions the app ships, and the app version that brought each (the SDK changelog: 24 came with 7.1). */
const NODE_VERSIONS_BY_APP = new Map([
  ['20', '6.4'],
  ['24', '7.1'],
]);

export interface PluginFolder {
  dir: string;
  manifest: PluginManifest;
  /** The entry point the app runs on Windows, the system the stand-in says it is. */
  entryPoint: string;
  nodeVersion: string;
  action(uuid: string): ManifestAction;
}

function versionAtLeast(version: string, minimum: string): boolean {
  const parts = version.split('.').map(Number);
  const wanted = minimum.split('.').map(Number);
  for (let index = 0; index < wanted.length; index += 1) {
    const difference = (parts[index] ?? 0) - wanted[index]!;
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/** Reads and checks the folder as the app does; anything the app would refuse to load throws, saying what. */
export function readPluginFolder(dir: string, appVersion: string): PluginFolder {
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${dir} has no manifest.json`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PluginManifest;
  if (basename(dir) !== `${manifest.UUID}.sdPlugin`)
    throw new Error(
      `the folder of plugin ${manifest.UUID} must be named ${manifest.UUID}.sdPlugin, not ${basename(dir)}`,
    );
  if (!versionAtLeast(appVersion, manifest.Software.MinimumVersion))
    throw new Error(`the plugin needs Stream Deck ${manifest.Software.MinimumVersion}, the app is ${appVersion}`);
  const nodeVersion = manifest.Nodejs?.Version;
  const nodeSince = nodeVersion === undefined ? undefined : NODE_VERSIONS_BY_APP.get(nodeVersion);
  if (!nodeSince) throw new Error(`Nodejs.Version must be one the app ships (20 or 24), not ${nodeVersion}`);
  if (!versionAtLeast(manifest.Software.MinimumVersion, nodeSince))
    throw new Error(`Node.js ${nodeVersion} needs Software.MinimumVersion ${nodeSince} or later`);
  const entryPoint = manifest.CodePathWin ?? manifest.CodePath;
  if (!existsSync(join(dir, entryPoint))) throw new Error(`the plugin's entry point ${entryPoint} is missing`);
  for (const action of manifest.Actions) {
    if (!action.UUID.startsWith(`${manifest.UUID}.`))
      throw new Error(`action ${action.UUID} must be named under the plugin's UUID ${manifest.UUID}`);
  }
  return {
    dir,
    manifest,
    entryPoint,
    nodeVersion: nodeVersion!,
    action(uuid) {
      const action = manifest.Actions.find((candidate) => candidate.UUID === uuid);
      if (!action) throw new Error(`the manifest has no action ${uuid}`);
      return action;
    },
  };
}
