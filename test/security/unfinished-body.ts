import { request as httpRequest } from 'node:http';

export interface UnfinishedBody {
  /** The caller's address on loopback (any of 127.0.0.0/8 on Linux), so a test can play a machine of its own. */
  source?: string;
  headers?: Record<string, string>;
}

/**
 * Sends a POST's headers and the first bytes of a 60 KB body that never comes, then waits (2 s at most) for an answer:
 * a route that decides before reading answers at once; one that waits for the body gives 'no answer'.
 */
export function answerBeforeTheBody(
  baseUrl: string,
  path: string,
  { source, headers = {} }: UnfinishedBody = {},
): Promise<number | 'no answer'> {
  return new Promise((resolve) => {
    const request = httpRequest(new URL(path, baseUrl), {
      method: 'POST',
      agent: false,
      ...(source ? { localAddress: source } : {}),
      headers: { 'content-type': 'application/json', ...headers, 'content-length': '60000' },
    });
    const timer = setTimeout(() => {
      request.destroy();
      resolve('no answer');
    }, 2000);
    request.on('response', (response) => {
      clearTimeout(timer);
      response.resume();
      request.destroy();
      resolve(response.statusCode!);
    });
    request.on('error', () => {});
    request.write('{"appName":');
  });
}
