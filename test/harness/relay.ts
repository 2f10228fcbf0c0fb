import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelay, type Relay, type RelayOptions } from '../../relay/relay.ts';
import { TOOL_SCOPES, type Scope } from '../../relay/auth/scopes.ts';
import { call, type Answer, type CallOptions } from './http.ts';

/** A `world:link` key holds no other scope, so "every scope" for a tool's key means all the others. */
export { TOOL_SCOPES };

export interface TestRelay {
  relay: Relay;
  baseUrl: string;
  wsUrl: string;
  dataDir: string;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>>;
  /** Creates a key through the admin API; by default with every scope a tool's key can hold (all but world:link). */
  createKey(options?: {
    scopes?: readonly Scope[];
    userId?: string;
    worldIds?: string[];
    name?: string;
  }): Promise<string>;
  api<T = any>(key: string | undefined, method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** Stops the relay and starts it again on the same port, after `downForMs` without a relay (50 ms by default). */
  restart(options?: { downForMs?: number }): Promise<void>;
  close(): Promise<void>;
}

/** The settings UI as `npm run build:renderer` builds it, which the tests of its pages run first. */
const SETTINGS_UI_DIR = join(import.meta.dirname, '..', '..', 'dist', 'renderer');

/** A relay on a free loopback port with a data directory of its own, serving the settings UI as `serve` does. */
export async function startTestRelay(options: Partial<RelayOptions> = {}): Promise<TestRelay> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tabletop-relay-test-'));
  const make = (port = 0) => createRelay({ port, settingsUi: { dir: SETTINGS_UI_DIR }, ...options, dataDir });
  let relay = make();
  await relay.start();
  const harness: TestRelay = {
    get relay() {
      return relay;
    },
    get baseUrl() {
      return relay.url;
    },
    get wsUrl() {
      return relay.url.replace(/^http/, 'ws');
    },
    dataDir,
    admin: (method, path, body) =>
      call(relay.url, method, path, { body, headers: { authorization: `Bearer ${relay.adminToken}` } }),
    async createKey({ scopes = TOOL_SCOPES, userId, worldIds, name = 'test key' } = {}) {
      const answer = await harness.admin('POST', '/admin/keys', { name, scopes, userId, worldIds });
      if (answer.status !== 201) throw new Error(`key creation failed: ${answer.text}`);
      return answer.body.key as string;
    },
    api: (key, method, path, callOptions = {}) =>
      call(relay.url, method, path, {
        ...callOptions,
        headers: { ...(key ? { 'x-api-key': key } : {}), ...callOptions.headers },
      }),
    async restart({ downForMs = 50 } = {}) {
      const port = relay.port;
      await relay.stop();
      // Lets the HTTP client see its pooled connections to the old server close before it reuses one.
      await new Promise((resolve) => setTimeout(resolve, downForMs));
      relay = make(port);
      await relay.start();
    },
    async close() {
      await relay.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
