// What the Stream Deck app does when a GM double-clicks a `.streamDeckPlugin` file (the one `streamdeck pack` makes,
// https://docs.elgato.com/streamdeck/cli): the file is a zip archive holding the `<UUID>.sdPlugin` folder, which the app
// unpacks into its Plugins folder. Read here with Node's zlib, so the tests need no unzip program.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** Unpacks a plugin package into `pluginsDir` and returns the plugin folder it held. */
export function installPluginPackage(packageFile: string, pluginsDir: string): string {
  const zip = readFileSync(packageFile);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY)
    throw new Error(`${packageFile} is not a zip file`);
  const folders = new Set<string>();
  let offset = zip.readUInt32LE(end + 16);
  for (let entry = zip.readUInt16LE(end + 10); entry > 0; entry -= 1) {
    if (zip.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) throw new Error(`${packageFile}: a damaged directory`);
    const method = zip.readUInt16LE(offset + 10);
    const size = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    const local = zip.readUInt32LE(offset + 42);
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
    const target = normalize(join(pluginsDir, name));
    if (!target.startsWith(pluginsDir + sep)) throw new Error(`${packageFile}: ${name} leaves the Plugins folder`);
    folders.add(name.split('/')[0]!);
    if (name.endsWith('/')) continue;
    if (zip.readUInt32LE(local) !== LOCAL_FILE_HEADER) throw new Error(`${packageFile}: a damaged entry ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const packed = zip.subarray(start, start + size);
    if (method !== STORED && method !== DEFLATED) throw new Error(`${packageFile}: ${name} uses method ${method}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, method === DEFLATED ? inflateRawSync(packed) : packed);
  }
  if (folders.size !== 1) throw new Error(`${packageFile} must hold one plugin folder, not ${[...folders].join(', ')}`);
  return join(pluginsDir, [...folders][0]!);
}
