import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../../relay/events/sse.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves `/slow` after 100 ms and anything else as an event stream of two roll events, then its end. */
function listen(): Promise<number> {
  server = createServer((request, response) => {
    if (request.url === '/slow') {
      setTimeout(() => response.end('slow done'), 100);
      return;
    }
    const stream = openEventStream(response);
    stream.send('roll', '{"n":1}');
    setTimeout(() => {
      stream.send('roll', '{"n":2}');
      stream.end();
    }, 150);
  });
  return new Promise((resolve) =>
    server!.listen(0, '127.0.0.1', () => resolve((server!.address() as { port: number }).port)),
  );
}

/** Sends the raw request text and collects everything the server sends until it has sent `until`. */
function exchange(port: number, requestText: string, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.endsWith(until)) return;
      socket.destroy();
      resolve(received);
    });
    socket.on('error', reject);
    socket.write(requestText);
  });
}

const EVENTS = 'event: roll\ndata: {"n":1}\n\n';
const CHUNKED_EVENTS = `1b\r\n${EVENTS}\r\n1b\r\nevent: roll\ndata: {"n":2}\n\n\r\n0\r\n\r\n`;

describe('an event stream on the wire', () => {
  it('frames each event as one HTTP/1.1 chunk and ends with the last chunk', async () => {
    const received = await exchange(await listen(), 'GET /events HTTP/1.1\r\nHost: relay\r\n\r\n', '0\r\n\r\n');
    expect(received).toContain('Transfer-Encoding: chunked\r\n');
    expect(received.slice(received.indexOf('\r\n\r\n') + 4)).toBe(CHUNKED_EVENTS);
  });

  it('sends bare frames to an HTTP/1.0 reader', async () => {
    const received = await exchange(await listen(), 'GET /events HTTP/1.0\r\n\r\n', 'data: {"n":2}\n\n');
    expect(received).not.toContain('Transfer-Encoding');
    expect(received.slice(received.indexOf('\r\n\r\n') + 4)).toBe(`${EVENTS}event: roll\ndata: {"n":2}\n\n`);
  });

  it('keeps its events behind the answer to a request pipelined before it on the same connection', async () => {
    const received = await exchange(
      await listen(),
      'GET /slow HTTP/1.1\r\nHost: relay\r\n\r\nGET /events HTTP/1.1\r\nHost: relay\r\n\r\n',
      '0\r\n\r\n',
    );
    const [first, second] = received.split('HTTP/1.1 200 OK').slice(1);
    expect(first).toMatch(/\r\n\r\nslow done$/);
    expect(second!.slice(second!.indexOf('\r\n\r\n') + 4)).toBe(CHUNKED_EVENTS);
  });
});
