// The lower bound the relay is compared to: node:http + ws, no framework, no validation. It accepts one world on
// /relay with the same handshake (any token will do) and forwards GET /rolls and POST /roll to it with the same
// message shape; GET /clients is answered locally.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface BareForwarder {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startBareForwarder(): Promise<BareForwarder> {
  const waiting = new Map<string, ServerResponse>();
  let world: WebSocket | undefined;
  let worldTitle = '';
  let nextId = 0;

  const forward = (type: string, parameters: Record<string, unknown>, response: ServerResponse) => {
    if (!world) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":"No connected Foundry clients found"}');
      return;
    }
    const requestId = `${type}_${(nextId += 1)}`;
    waiting.set(requestId, response);
    world.send(JSON.stringify({ ...parameters, type, requestId }));
  };

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://bare.invalid');
    if (request.method === 'GET' && url.pathname === '/rolls') {
      forward('rolls', Object.fromEntries(url.searchParams), response);
    } else if (request.method === 'GET' && url.pathname === '/clients') {
      const clients = world ? [{ clientId: 'bench-world', worldTitle, isOnline: true }] : [];
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ total: clients.length, clients }));
    } else if (request.method === 'POST' && url.pathname === '/roll') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () =>
        forward('roll', JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>, response),
      );
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Unknown endpoint"}');
    }
  });

  const sockets = new WebSocketServer({
    server,
    path: '/relay',
    perMessageDeflate: false,
    maxPayload: 256 * 1024 * 1024,
  });
  sockets.on('connection', (socket, request) => {
    worldTitle = new URL(request.url ?? '/', 'http://bare.invalid').searchParams.get('worldTitle') ?? '';
    socket.once('message', () => {
      world = socket;
      socket.send(JSON.stringify({ type: 'auth-success' }));
      socket.on('message', (data) => {
        const text = data.toString();
        const { requestId } = JSON.parse(text) as { requestId?: string };
        const response = requestId === undefined ? undefined : waiting.get(requestId);
        if (!response) return;
        waiting.delete(requestId!);
        response.writeHead(200, { 'content-type': 'application/json' }).end(text);
      });
    });
    socket.on('close', () => {
      if (world === socket) world = undefined;
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets.clients) socket.terminate();
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
