// Foundry's own public folder, which `FilePicker.browse("public", path)` lists and Foundry serves at its root: the core
// icons, the interface sounds and images, and the icons the world's documents point at. Read-only; its files are
// painted stand-ins, as the sandbox's other images are.
import { encodePng } from '../images/png.ts';
import { Raster, type Colour } from '../images/raster.ts';
import { FileStoreError, type DirectoryListing, type FileStore } from './file-store.ts';
import { extensionOf } from './media-types.ts';
import { parentOf } from './paths.ts';

/** Files every Foundry serves from public/: core SVG icons (the status effects' among them), sounds, interface images. */
export const CORE_PUBLIC_FILES = [
  ...[
    'acid',
    'biohazard',
    'blind',
    'blood',
    'book',
    'card-hand',
    'card-joker',
    'chest',
    'combat',
    'cowled',
    'd20-black',
    'd20-grey',
    'daze',
    'deaf',
    'dice-target',
    'door-closed',
    'eye',
    'falling',
    'fire',
    'frozen',
    'item-bag',
    'light',
    'lightning',
    'mystery-man',
    'net',
    'paralysis',
    'poison',
    'silenced',
    'skull',
    'sleep',
    'sound',
    'sun',
    'target',
    'terror',
    'unconscious',
    'wing',
  ].map((name) => `icons/svg/${name}.svg`),
  'sounds/dice.wav',
  'sounds/drums.wav',
  'sounds/lock.wav',
  'sounds/notify.wav',
  'ui/denim075.png',
  'ui/parchment.jpg',
];

const IMAGE_SIZE = 32;

function tintOf(path: string): Colour {
  let hash = 0;
  for (const char of path) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return [40 + (hash % 180), 40 + ((hash >> 8) % 180), 40 + ((hash >> 16) % 180)];
}

function svgOf(path: string): Uint8Array {
  const [r, g, b] = tintOf(path);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="28" fill="rgb(${r},${g},${b})"/></svg>`;
  return new TextEncoder().encode(svg);
}

/** A tenth of a second of silence as 8-bit mono WAV at 8 kHz. */
function silentWav(): Uint8Array {
  const samples = 800;
  const bytes = new Uint8Array(44 + samples).fill(128, 44);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => [...value].forEach((char, i) => (bytes[at + i] = char.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples, true);
  text(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  text(36, 'data');
  view.setUint32(40, samples, true);
  return bytes;
}

async function standIn(path: string): Promise<Uint8Array> {
  const extension = extensionOf(path);
  if (extension === 'svg') return svgOf(path);
  if (['wav', 'ogg', 'mp3'].includes(extension)) return silentWav();
  return encodePng(new Raster(IMAGE_SIZE, IMAGE_SIZE, tintOf(path)));
}

/** A read-only store holding these files (store paths), and the folders above them. */
export function publicFileStore(paths: Iterable<string>): FileStore {
  const files = new Set(paths);
  const directories = new Set<string>(['']);
  for (const path of files) {
    for (let dir = parentOf(path); !directories.has(dir); dir = parentOf(dir)) directories.add(dir);
  }
  const isChildOf = (dir: string) => (path: string) => path !== '' && parentOf(path) === dir;
  return {
    async list(dir) {
      if (!directories.has(dir)) return null;
      const listing: DirectoryListing = {
        dirs: [...directories].filter(isChildOf(dir)).sort(),
        files: [...files].filter(isChildOf(dir)).sort(),
      };
      return listing;
    },
    async read(path) {
      return files.has(path) ? standIn(path) : null;
    },
    async kindOf(path) {
      return directories.has(path) ? 'directory' : files.has(path) ? 'file' : null;
    },
    async write() {
      throw new FileStoreError("Foundry's public folder is read-only");
    },
  };
}
