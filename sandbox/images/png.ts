// A minimal PNG encoder: 8-bit RGBA, no filtering, zlib stream from CompressionStream('deflate').
import { concatBytes } from './encoding.ts';
import type { Raster } from './raster.ts';

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOUR_TYPE_RGBA = 6;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concatBytes([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(typed, 4);
  view.setUint32(8 + data.length, crc32(typed));
  return out;
}

function header(width: number, height: number): Uint8Array {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data.set([8, COLOUR_TYPE_RGBA, 0, 0, 0], 8);
  return data;
}

/** Each scanline is prefixed with filter type 0 (none). */
function scanlines(raster: Raster): Uint8Array {
  const stride = raster.width * 4;
  const out = new Uint8Array((stride + 1) * raster.height);
  for (let row = 0; row < raster.height; row++) {
    out.set(raster.pixels.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
  }
  return out;
}

async function zlibDeflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function encodePng(raster: Raster): Promise<Uint8Array> {
  return concatBytes([
    SIGNATURE,
    chunk('IHDR', header(raster.width, raster.height)),
    chunk('IDAT', await zlibDeflate(scanlines(raster))),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
