#!/usr/bin/env node
// `npm run sandbox:pair`: the sandbox world pairs with a running relay and stays connected, standing in for pressing
// Pair (or Enter Code) in the Foundry module. It speaks the module's own protocol (module-protocol.md §3), nothing more.
import { parseArgs } from 'node:util';
import {
  connectSandbox,
  createSandboxWorld,
  exchangePairingCode,
  pairSandbox,
  PairingError,
  type PairingResult,
  type SandboxWorld,
} from './index.ts';

const HELP = `Pairs the sandbox world with the relay running on this computer, as pressing Pair in the Foundry module does,
then keeps it connected until Ctrl+C.

Usage: npm run sandbox:pair -- [--relay http://127.0.0.1:3010] [--code CODE] [--allow-macros] [--seed 42]

  --relay <url>   The relay's address (default http://127.0.0.1:3010)
  --code <code>   A pairing code from the settings UI (Enter Code in the module) instead of a pair request to approve
  --allow-macros  Turn on the module's Allow macro execution setting, which POST /macro/{uuid}/execute needs
  --seed <number> Seed of the sandbox world (default 42)
`;

const APPROVAL_WAIT_MS = 10 * 60_000;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function readOptions(): { relay: string; code: string | undefined; allowMacros: boolean; seed: number } | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        relay: { type: 'string' },
        code: { type: 'string' },
        'allow-macros': { type: 'boolean', default: false },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HELP}`);
  }
  if (values.help) return 'help';
  const seed = Number(values.seed ?? 42);
  if (!Number.isInteger(seed)) fail(`--seed must be a whole number, not '${values.seed}'`);
  return {
    relay: (values.relay ?? 'http://127.0.0.1:3010').replace(/\/+$/, ''),
    code: values.code,
    allowMacros: values['allow-macros'] === true,
    seed,
  };
}

function pair(world: SandboxWorld, httpBase: string, code: string | undefined): Promise<PairingResult> {
  if (code) return exchangePairingCode(world, { httpBase, code });
  return pairSandbox(world, {
    httpBase,
    pollIntervalMs: 1000,
    timeoutMs: APPROVAL_WAIT_MS,
    onCode: (requestCode, pairUrl) =>
      process.stdout.write(
        `Pair request ${requestCode} sent. Approve it in the settings (Status page), or open ${pairUrl}\n`,
      ),
  });
}

async function main(): Promise<void> {
  const options = readOptions();
  if (options === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const world = createSandboxWorld({ seed: options.seed });
  world.game.settings.allowMacroExecute = options.allowMacros;
  process.stdout.write(`Sandbox world "${world.metadata.worldTitle}" pairing with ${options.relay}\n`);
  let paired: PairingResult;
  try {
    paired = await pair(world, options.relay, options.code);
  } catch (error) {
    if (error instanceof PairingError) fail(`Pairing failed: ${error.message}`);
    if (error instanceof TypeError)
      fail(`No relay answers at ${options.relay}: start it with 'npm run serve', or give its address with --relay.`);
    throw error;
  }
  const link = await connectSandbox(world, {
    relayUrl: paired.relayUrl,
    clientId: paired.clientId,
    token: paired.token,
    reconnect: true,
  });
  process.stdout.write(`Paired and connected as ${paired.clientId}. Press Ctrl+C to disconnect.\n`);
  const stop = () => void link.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
