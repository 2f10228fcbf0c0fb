// Baseline JPEG through jpeg-js (pure JS, so it also runs in a browser).
import jpeg from 'jpeg-js';
import type { Raster } from './raster.ts';

/** `quality` is the module's 0–1 value; jpeg-js expects 1–100. */
export function encodeJpeg(raster: Raster, quality: number): Uint8Array {
  const encoded = jpeg.encode(
    { width: raster.width, height: raster.height, data: raster.pixels },
    Math.max(1, Math.min(100, Math.round(quality * 100))),
  );
  return new Uint8Array(encoded.data);
}
