import { request } from 'node:http';
import type { Answer } from './http.ts';
import type { CallContext } from '../../relay/routing/route.ts';

/**
 * One HTTP call on loopback from a chosen source address (any of 127.0.0.0/8 on Linux), so a test can play several
 * machines: the relay sees that address as the caller's.
 */
export function callFrom<T = any>(
  source: string,
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  const url = new URL(path, baseUrl);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: source,
        agent: false,
        headers:
          text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (incoming) => {
        let answer = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (answer += chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers))
            if (typeof value === 'string') headers.set(name, value);
          const isJson = headers.get('content-type')?.includes('json');
          resolve({
            status: incoming.statusCode ?? 0,
            headers,
            body: isJson && answer ? JSON.parse(answer) : answer,
            text: answer,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

/**
 * What a route sees of an HTTP call from another machine on the LAN, for where no network namespace can be made to
 * send a real one. `authorization` is the only header it carries.
 */
export function lanCallContext(relayOrigin: string, authorization?: string): CallContext {
  return {
    transport: 'http',
    remoteAddress: '192.168.1.20',
    relayOrigin,
    header: (name) => (name === 'authorization' ? authorization : undefined),
  };
}
