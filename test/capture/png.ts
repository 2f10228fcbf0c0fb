// Decodes the PNGs Chromium writes (8-bit RGB or RGBA, not interlaced) so tests can read pixels.
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** RGB of the pixel at (x, y). */
  pixel(x: number, y: number): [number, number, number];
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

export function decodePng(bytes: Buffer): DecodedPng {
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24];
  const colourType = bytes[25];
  if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || bytes[28] !== 0)
    throw new Error(`unsupported PNG: depth ${bitDepth}, colour type ${colourType}`);
  const channels = colourType === 6 ? 4 : 3;
  const chunks: Buffer[] = [];
  for (let offset = 8; offset < bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (type === 'IDAT') chunks.push(bytes.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? pixels[y * stride + i - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
      const upLeft = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]!;
      pixels[y * stride + i] = (line[i]! + predictor) & 0xff;
    }
  }
  return {
    width,
    height,
    pixel(x, y) {
      const at = (Math.floor(y) * width + Math.floor(x)) * channels;
      return [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!];
    },
  };
}
