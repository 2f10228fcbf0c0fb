// The worker side of image-codec.ts: decodes the PNG and encodes the answer on a canvas in a Chromium page, then
// wakes the waiting main thread.
import { workerData, type MessagePort } from 'node:worker_threads';
import puppeteer, { type Page } from 'puppeteer-core';
import type { CodecReply, CodecRequest } from './image-codec.ts';

const { browserWSEndpoint, port } = workerData as { browserWSEndpoint: string; port: MessagePort };

let canvasPage: Promise<Page> | undefined;
function page(): Promise<Page> {
  canvasPage ??= puppeteer.connect({ browserWSEndpoint, defaultViewport: null }).then((browser) => browser.newPage());
  return canvasPage;
}

interface InPage {
  png: string;
  type: 'image/png' | 'image/jpeg';
  quality?: number;
  width?: number;
  height?: number;
  smoothing: ImageSmoothingQuality;
}

async function encodeInPage({ png, type, quality, width, height, smoothing }: InPage): Promise<string> {
  const bytes = Uint8Array.from(atob(png), (char) => char.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(width ?? bitmap.width, height ?? bitmap.height);
  const context = canvas.getContext('2d')!;
  context.imageSmoothingQuality = smoothing;
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const encoded = new Uint8Array(await (await canvas.convertToBlob({ type, quality })).arrayBuffer());
  let binary = '';
  for (const byte of encoded) binary += String.fromCharCode(byte);
  return btoa(binary);
}

async function run(request: CodecRequest): Promise<Uint8Array> {
  const png = Buffer.from(request.png).toString('base64');
  const input: InPage =
    request.kind === 'jpeg'
      ? { png, type: 'image/jpeg', quality: request.quality / 100, smoothing: 'high' }
      : { png, type: 'image/png', width: request.width, height: request.height, smoothing: request.smoothing };
  return Buffer.from(await (await page()).evaluate(encodeInPage, input), 'base64');
}

port.on('message', ({ request, signal }: { request: CodecRequest; signal: Int32Array }) => {
  void run(request)
    .then(
      (bytes): CodecReply => ({ ok: true, bytes }),
      (error: unknown): CodecReply => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    )
    .then((reply) => {
      port.postMessage(reply);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });
});
