// One very large frame from the world: the peer answers `sheet-screenshot` with a data URL whose base64 text is
// 4/3 of the image bytes, and the relay decodes it and sends the bytes on as the /sheet response.
import { get } from 'node:http';
import type { ServerProcess } from './server-process.ts';

export interface SheetFrameResult {
  frameMiB: number;
  imageBytes: number;
  receivedBytes: number;
  status: number;
  /** From sending the request to the last byte of the response. */
  seconds: number;
}

export async function measureSheetFrame(server: ServerProcess, imageBytes: number): Promise<SheetFrameResult> {
  await server.prepareSheet(imageBytes);
  const started = performance.now();
  const { status, receivedBytes } = await new Promise<{ status: number; receivedBytes: number }>((resolve, reject) => {
    get(`${server.url}/sheet?uuid=Actor.bench`, { headers: { 'x-api-key': server.apiKey } }, (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => (received += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, receivedBytes: received }));
      response.on('error', reject);
    }).on('error', reject);
  });
  return {
    frameMiB: (Math.ceil(imageBytes / 3) * 4) / 2 ** 20,
    imageBytes,
    receivedBytes,
    status,
    seconds: (performance.now() - started) / 1000,
  };
}
