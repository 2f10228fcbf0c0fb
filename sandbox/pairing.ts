// How the module gets a connection token over HTTP (module-protocol.md §3.3 flow A, §3.4 flow B).
import type { SandboxWorld } from './sandbox-world.ts';

export interface PairingResult {
  token: string;
  clientId: string;
  relayUrl: string;
}

export interface PairOptions {
  httpBase: string;
  onCode?: (code: string, pairUrl: string) => void;
  pollIntervalMs?: number;
  timeoutMs?: number;
}

export class PairingError extends Error {}

function endpoint(httpBase: string, path: string): string {
  return `${httpBase.replace(/\/+$/, '')}${path}`;
}

async function requestJson(
  url: string,
  init?: RequestInit,
): Promise<{ ok: boolean; status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, init);
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: response.ok, status: response.status, body };
}

/** The module calls from the Foundry page, so its browser sends that page's origin with every call (§3.2). */
function fromPage(world: SandboxWorld): Record<string, string> {
  return { origin: world.game.serverOrigin };
}

function post(world: SandboxWorld, body: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...fromPage(world) },
    body: JSON.stringify(body),
  };
}

function failure(body: Record<string, unknown>, status: number, fallback: string): PairingError {
  return new PairingError(typeof body.error === 'string' ? body.error : `${fallback} (HTTP ${status})`);
}

/** Flow A: ask for a pairing request, let a human approve it, poll, then exchange the pairing code. */
export async function pairSandbox(world: SandboxWorld, options: PairOptions): Promise<PairingResult> {
  const { game, metadata } = world;
  const created = await requestJson(
    endpoint(options.httpBase, '/auth/pair-request'),
    post(world, {
      worldId: metadata.worldId,
      worldTitle: metadata.worldTitle,
      systemId: metadata.systemId,
      systemTitle: metadata.systemTitle,
      systemVersion: metadata.systemVersion,
      foundryVersion: metadata.foundryVersion,
      serverFingerprint: game.relaySettings.serverFingerprint,
    }),
  );
  if (!created.ok) throw failure(created.body, created.status, 'Pairing request failed');
  const code = String(created.body.code);
  options.onCode?.(code, String(created.body.pairUrl ?? ''));
  const pairingCode = await waitForApproval(world, options, code);
  return exchangePairingCode(world, { httpBase: options.httpBase, code: pairingCode });
}

async function waitForApproval(world: SandboxWorld, options: PairOptions, code: string): Promise<string> {
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  const statusUrl = endpoint(options.httpBase, `/auth/pair-request/${encodeURIComponent(code)}/status`);
  while (Date.now() < deadline) {
    const { ok, status, body } = await requestJson(statusUrl, { headers: fromPage(world) });
    if (!ok) throw failure(body, status, 'Pairing request not found or expired');
    if (body.status === 'approved' && typeof body.pairingCode === 'string') return body.pairingCode;
    if (body.status === 'denied') throw new PairingError('Pairing request was denied');
    if (body.status === 'expired') throw new PairingError('Pairing request expired');
    if (body.status === 'exchanged') throw new PairingError('Pairing request was already used');
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(options.pollIntervalMs ?? 3000, Math.max(0, deadline - Date.now()))),
    );
  }
  throw new PairingError('Timed out waiting for pairing approval');
}

/** Flow B: exchange a pairing code for a connection token, then remember the clientId as the module does. */
export async function exchangePairingCode(
  world: SandboxWorld,
  options: { httpBase: string; code: string },
): Promise<PairingResult> {
  const { game, metadata } = world;
  const { ok, status, body } = await requestJson(
    endpoint(options.httpBase, '/auth/pair'),
    post(world, {
      code: options.code.toUpperCase(),
      worldId: metadata.worldId,
      worldTitle: metadata.worldTitle,
      serverFingerprint: game.relaySettings.serverFingerprint,
      existingClientId: game.relaySettings.clientId,
      serverOrigin: game.serverOrigin,
    }),
  );
  if (!ok) throw failure(body, status, 'Pairing failed');
  const result = { token: String(body.token), clientId: String(body.clientId), relayUrl: String(body.relayUrl ?? '') };
  game.relaySettings.clientId = result.clientId;
  if (result.relayUrl) game.relaySettings.wsRelayUrl = result.relayUrl;
  game.relaySettings.pairedRelayUrl = game.relaySettings.wsRelayUrl;
  return result;
}
