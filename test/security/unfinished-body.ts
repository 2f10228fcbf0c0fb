import { request as httpRequest } from 'node:http';

export interface UnfinishedBody {
  /** The caller's address on loopback (any of 127.0.0.0/8 on Linux), so a test can play a machine of its own. */
  source?: string;
  headers?: Record<string, string>;
  /** The Content-Length the request declares: 60 KB unless told. */
  declaredBytes?: number;
  /** The part of the body that is sent: the start of a key request unless told. */
  firstBytes?: string | Buffer;
  /** How long to wait for an answer before calling it none: 2 s unless told. */
  waitMs?: number;
}

/**
 * Sends a POST's headers and the first bytes of a body that never comes in full, then waits for an answer: a route
 * that decides before reading answers at once; one that waits for the body gives 'no answer'.
 */
export function answerBeforeTheBody(
  baseUrl: string,
  path: string,
  { source, headers = {}, declaredBytes = 60_000, firstBytes = '{"appName":', waitMs = 2000 }: UnfinishedBody = {},
): Promise<number | 'no answer'> {
  return new Promise((resolve) => {
    const request = httpRequest(new URL(path, baseUrl), {
      method: 'POST',
      agent: false,
      ...(source ? { localAddress: source } : {}),
      headers: { 'content-type': 'application/json', ...headers, 'content-length': String(declaredBytes) },
    });
    const timer = setTimeout(() => {
      request.destroy();
      resolve('no answer');
    }, waitMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      response.resume();
      request.destroy();
      resolve(response.statusCode!);
    });
    request.on('error', () => {});
    request.write(firstBytes);
  });
}
