// nativeImage's encoders and resampler are Chromium's own (Skia, libjpeg-turbo), and its methods are synchronous
// (https://www.electronjs.org/docs/latest/api/native-image: toJPEG, resize). The stand-in reaches the windows' Chromium
// from a worker thread and waits for the answer, so that toJPEG and resize return at once as Electron's do.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

export type CodecRequest =
  | { kind: 'jpeg'; png: Buffer; quality: number }
  | { kind: 'resize'; png: Buffer; width: number; height: number; smoothing: 'low' | 'medium' | 'high' };

export type CodecReply = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

const ANSWER_WITHIN_MS = 15_000;

let codec: { port: MessagePort } | undefined;

/** Called once Chromium runs: images are encoded in a page of it. */
export function encodeWithChromium(browserWSEndpoint: string): void {
  if (codec) return;
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./image-codec-worker.ts', import.meta.url), {
    workerData: { browserWSEndpoint, port: port2 },
    transferList: [port2],
  });
  worker.unref();
  codec = { port: port1 };
}

export function encodeNow(request: CodecRequest): Buffer {
  if (!codec) throw new Error('The Electron stand-in encodes images in its Chromium, which no window has started yet');
  const signal = new Int32Array(new SharedArrayBuffer(4));
  codec.port.postMessage({ request, signal });
  if (Atomics.wait(signal, 0, 0, ANSWER_WITHIN_MS) === 'timed-out')
    throw new Error(`Chromium did not encode the image within ${ANSWER_WITHIN_MS} ms`);
  const reply = receiveMessageOnPort(codec.port)?.message as CodecReply | undefined;
  if (!reply) throw new Error('Chromium gave no encoded image');
  if (!reply.ok) throw new Error(reply.error);
  return Buffer.from(reply.bytes);
}
