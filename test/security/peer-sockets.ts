// Runs on the LAN peer (test/ui/lan-peer.ts `node`): opens the sockets the test asks for, from the addresses it names,
// and reports what becomes of them. Orders come as JSON lines on stdin, reports go out as JSON lines on stdout.
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';

type Order =
  | { op: 'ws'; id: string; url: string; localAddress?: string; origin?: string; headers?: Record<string, string> }
  | { op: 'send'; id: string; text: string }
  | { op: 'close'; id: string }
  | { op: 'tcp'; id: string; host: string; port: number; localAddress?: string }
  | { op: 'write'; id: string; text: string }
  | { op: 'flood'; host: string; port: number; localAddresses: string[]; perAddress: number }
  | { op: 'count' }
  | { op: 'unflood' };

const sockets = new Map<string, WebSocket>();
const connections = new Map<string, Socket>();
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

/** A plain TCP connection, to send a request by hand later; what comes back is reported as it comes. */
function openTcp(order: Extract<Order, { op: 'tcp' }>): void {
  const { id } = order;
  const socket = connect({ host: order.host, port: order.port, localAddress: order.localAddress });
  connections.set(id, socket);
  socket.on('error', () => undefined);
  socket.on('connect', () => report({ id, event: 'open' }));
  socket.on('data', (data) => report({ id, event: 'data', text: data.toString() }));
  socket.on('close', () => report({ id, event: 'close' }));
}

/** How many connection attempts are under way at once: more would overflow the relay's accept queue and wait on retries. */
const IN_FLIGHT = 256;

/** Opens one idle TCP connection; resolves once it connected or failed. */
function openIdle(host: string, port: number, localAddress: string): Promise<boolean> {
  return new Promise((settle) => {
    const socket = connect({ host, port, localAddress });
    // Reads (and drops) what the relay sends, so its close is seen.
    socket.resume();
    socket.on('error', () => settle(false));
    socket.once('close', () => settle(false));
    socket.once('connect', () => {
      flood.push(socket);
      settle(true);
    });
  });
}

/** Opens idle TCP connections, `perAddress` from each address, and reports how many the relay kept open. */
async function startFlood(order: Extract<Order, { op: 'flood' }>): Promise<void> {
  const attempts = order.localAddresses.flatMap((localAddress) =>
    Array.from({ length: order.perAddress }, () => localAddress),
  );
  let connected = 0;
  const worker = async () => {
    for (let localAddress = attempts.pop(); localAddress !== undefined; localAddress = attempts.pop()) {
      if (await openIdle(order.host, order.port, localAddress)) connected += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  // The relay closes the connections it refuses at once: give those closes a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
  report({ event: 'flooded', connected, open: openFlood() });
}

function openFlood(): number {
  return flood.filter((socket) => !socket.destroyed).length;
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const order = JSON.parse(line) as Order;
  if (order.op === 'ws') openWebSocket(order);
  else if (order.op === 'send') sockets.get(order.id)?.send(order.text);
  else if (order.op === 'close') sockets.get(order.id)?.terminate();
  else if (order.op === 'tcp') openTcp(order);
  else if (order.op === 'write') connections.get(order.id)?.write(order.text);
  else if (order.op === 'flood') void startFlood(order);
  else if (order.op === 'count') report({ event: 'count', open: openFlood() });
  else {
    for (const socket of flood.splice(0)) socket.destroy();
    report({ event: 'unflooded' });
  }
});
process.stdin.on('end', () => process.exit(0));
report({ event: 'ready' });
