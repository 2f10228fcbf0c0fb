// /mcp loads the MCP SDK at its first request, as capture loads the browser: a relay no assistant uses never pays for it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayServices } from '../services.ts';
import type { McpEndpoint, McpEndpointOptions } from './mcp-endpoint.ts';

export class McpEndpointLoader {
  private endpoint: McpEndpoint | undefined;
  private loading: Promise<McpEndpoint> | undefined;
  private readonly services: RelayServices;
  private readonly options: McpEndpointOptions;

  constructor(services: RelayServices, options: McpEndpointOptions) {
    this.services = services;
    this.options = options;
  }

  handle(request: IncomingMessage, response: ServerResponse, query: string): void {
    this.loading ??= import('./mcp-endpoint.ts').then(({ McpEndpoint }) => {
      this.endpoint = new McpEndpoint(this.services, this.options);
      return this.endpoint;
    });
    this.loading.then(
      (endpoint) => endpoint.handle(request, response, query),
      (error: unknown) => {
        this.services.log.error('The MCP endpoint could not be loaded:', error);
        response
          .writeHead(500, { 'Content-Type': 'application/json' })
          .end('{"error":"The MCP endpoint could not be loaded"}');
      },
    );
  }

  endSessionsOf(keyId: string): void {
    this.endpoint?.endSessionsOf(keyId);
  }

  sessionsPerKey(): Map<string, number> {
    return this.endpoint?.sessionsPerKey() ?? new Map();
  }

  close(): void {
    this.endpoint?.close();
  }
}
