// The tools' input schemas (some 13 MB of JSON Schema for the whole route table) are made only where an assistant is
// served, once: a relay no assistant uses never pays for them, the settings' AI assistants page needs none of them,
// and every /mcp session shares one set.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcpClient, toolNames } from '../harness/mcp.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

const schemaBuilds = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../relay/api/openapi.ts', async (importOriginal) => {
  const openApi = await importOriginal<typeof import('../../relay/api/openapi.ts')>();
  return {
    ...openApi,
    parameterSchema: (...args: Parameters<typeof openApi.parameterSchema>) => {
      schemaBuilds.count += 1;
      return openApi.parameterSchema(...args);
    },
  };
});

let relay: TestRelay;
const clients: Client[] = [];
beforeAll(async () => {
  relay = await startTestRelay({ capture: false });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await relay.close();
});

async function listedTools(key: string): Promise<string[]> {
  const client = await mcpClient(relay.baseUrl, key);
  clients.push(client);
  return toolNames(client);
}

describe('the MCP tools are made where an assistant is served, once', () => {
  it('a relay that only answers HTTP calls never makes them', async () => {
    const key = await relay.createKey({ scopes: ['clients:read'] });
    expect((await relay.api(key, 'GET', '/clients')).status).toBe(200);
    expect(schemaBuilds.count).toBe(0);
  });

  it('the first session makes them; later sessions and the AI assistants page reuse them', async () => {
    const key = await relay.createKey({ scopes: ['roll:read', 'roll:execute'] });
    expect(await listedTools(key)).toContain('roll');
    const made = schemaBuilds.count;
    expect(made).toBeGreaterThan(50);
    expect(await listedTools(key)).toContain('rolls');
    const page = await relay.admin('GET', '/admin/assistants');
    expect(page.status).toBe(200);
    expect(schemaBuilds.count).toBe(made);
  });
});
