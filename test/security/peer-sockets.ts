// Runs on the LAN peer (test/ui/lan-peer.ts `node`): opens the sockets the test asks for, from the addresses it names,
// and reports what becomes of them. Orders come as JSON lines on stdin, reports go out as JSON lines on stdout.
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';

type Order =
  | { op: 'ws'; id: string; url: string; localAddress?: string; origin?: string; headers?: Record<string, string> }
  | { op: 'send'; id: string; text: string }
  | { op: 'close'; id: string }
  | { op: 'flood'; host: string; port: number; localAddresses: string[]; perAddress: number }
  | { op: 'unflood' };

const sockets = new Map<string, WebSocket>();
const flood: Socket[] = [];
const report = (fields: object) => process.stdout.write(`${JSON.stringify(fields)}\n`);

function openWebSocket(order: Extract<Order, { op: 'ws' }>): void {
  const { id } = order;
  const socket = new WebSocket(order.url, {
    localAddress: order.localAddress,
    origin: order.origin,
    headers: order.headers,
    perMessageDeflate: false,
  });
  sockets.set(id, socket);
  socket.on('error', (error) => report({ id, event: 'error', message: error.message }));
  socket.on('open', () => report({ id, event: 'open' }));
  socket.on('message', (data) => report({ id, event: 'message', text: data.toString() }));
  socket.on('close', (code) => report({ id, event: 'close', code }));
  socket.on('unexpected-response', (_request, response) => {
    let body = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (body += chunk));
    response.on('end', () => report({ id, event: 'refused', status: response.statusCode, body }));
  });
}

/** Opens idle TCP connections, `perAddress` from each address, and reports how many the relay kept open. */
async function startFlood(order: Extract<Order, { op: 'flood' }>): Promise<void> {
  let connected = 0;
  let failed = 0;
  const attempts = order.localAddresses.flatMap((localAddress) =>
    Array.from(
      { length: order.perAddress },
      () =>
        new Promise<void>((settle) => {
          const socket = connect({ host: order.host, port: order.port, localAddress });
          socket.on('error', () => undefined);
          socket.once('connect', () => {
            connected += 1;
            flood.push(socket);
            settle();
          });
          socket.once('close', () => {
            if (!socket.readyState.startsWith('open')) failed += 1;
            settle();
          });
        }),
    ),
  );
  await Promise.all(attempts);
  // The relay closes the connections it refuses at once: give those closes a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
  report({ event: 'flooded', connected, failed, open: flood.filter((socket) => !socket.destroyed).length });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const order = JSON.parse(line) as Order;
  if (order.op === 'ws') openWebSocket(order);
  else if (order.op === 'send') sockets.get(order.id)?.send(order.text);
  else if (order.op === 'close') sockets.get(order.id)?.terminate();
  else if (order.op === 'flood') void startFlood(order);
  else {
    for (const socket of flood.splice(0)) socket.destroy();
    report({ event: 'unflooded' });
  }
});
process.stdin.on('end', () => process.exit(0));
report({ event: 'ready' });
