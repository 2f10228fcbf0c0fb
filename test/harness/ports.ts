import { createServer, type Server } from 'node:net';

/** A loopback port free right now: the system picks it, then it is let go. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A loopback port another program holds until `release` is called. */
export async function heldPort(): Promise<{ port: number; release(): Promise<void> }> {
  const squatter: Server = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  const { port } = squatter.address() as { port: number };
  return { port, release: () => new Promise<void>((resolve) => squatter.close(() => resolve())) };
}
