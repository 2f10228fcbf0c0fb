// A web page of another origin on this computer (another port of 127.0.0.1: the same site as the relay, for cookies),
// as a page the GM opens in the same browser would be. It serves one HTML page for every path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtherOriginPage {
  /** http://127.0.0.1:<port>, the page's origin. */
  origin: string;
  close(): Promise<void>;
}

export async function serveOtherOriginPage(
  html = '<!doctype html><title>Another page</title><p>Another page</p>',
): Promise<OtherOriginPage> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
