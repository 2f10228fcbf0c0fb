#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRelay, DEFAULT_HOST, DEFAULT_PORT, type Relay } from './relay.ts';
import { startDemoWorld } from './demo.ts';
import { RELAY_VERSION } from './version.ts';

const HELP = `Tabletop Relay ${RELAY_VERSION}: a local relay between Foundry VTT worlds and your tools.

Usage:
  tabletop-relay serve [options]   Run the relay; worlds connect to ws://<host>:<port>/relay
  tabletop-relay demo  [options]   Run the relay with the built-in sandbox world connected, and print a ready API key
  tabletop-relay --help            Show this help

Options:
  --port <number>      Port to listen on (default ${DEFAULT_PORT})
  --host <address>     Address to listen on (default ${DEFAULT_HOST}: this computer only)
  --lan                Also answer on this computer's LAN addresses, so players' tools can reach the relay
                       (the settings UI can switch this too)
  --data-dir <path>    Where keys, tokens and settings are kept
                       (serve: default ~/.local/share/tabletop-relay; demo: a fresh temporary folder)
  --seed <number>      demo only: seed of the sandbox world (default 42)
`;

interface CliOptions {
  command: 'serve' | 'demo';
  port: number;
  host: string | undefined;
  lan: boolean;
  dataDir: string | undefined;
  seed: number;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n\nRun 'tabletop-relay --help' for the options.\n`);
  process.exit(2);
}

function wholeNumberOption(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > max) fail(`--${name} must be a whole number from 0 to ${max}, not '${value}'`);
  return number;
}

function readOptions(argv: string[]): CliOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        lan: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') return 'help';
  if (command !== 'serve' && command !== 'demo') fail(`Unknown command '${command}'`);
  if (values.lan && values.host) fail('Give either --lan or --host, not both');
  return {
    command,
    port: wholeNumberOption(values.port, 'port', DEFAULT_PORT, 65535),
    host: values.host,
    lan: values.lan === true,
    dataDir: values['data-dir'],
    seed: wholeNumberOption(values.seed, 'seed', 42, 2 ** 31),
  };
}

function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'tabletop-relay');
}

async function startRelay(options: CliOptions, dataDir: string): Promise<Relay> {
  const relay = createRelay({ dataDir, port: options.port, host: options.host, settings: options.lan ? { lanAccess: true } : {} });
  try {
    await relay.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`Port ${options.port} is already in use: is Tabletop Relay already running? Pick another with --port.`);
    if (code === 'EADDRNOTAVAIL') fail(`This computer has no address ${options.host ?? DEFAULT_HOST}; use --host 127.0.0.1 or --lan.`);
    throw error;
  }
  return relay;
}

function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stdout.write('\nStopping…\n');
    void stop().then(() => process.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  if (options === 'help') {
    process.stdout.write(HELP);
    return;
  }
  const temporary = options.command === 'demo' && !options.dataDir;
  const dataDir = options.dataDir ?? (temporary ? mkdtempSync(join(tmpdir(), 'tabletop-relay-demo-')) : defaultDataDir());
  const relay = await startRelay(options, dataDir);
  const wsUrl = `${relay.url.replace(/^http/, 'ws')}/relay`;
  let stopDemo = async () => {};
  stopOnSignal(async () => {
    await stopDemo();
    await relay.stop();
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
  });
  if (options.command === 'demo') {
    const demo = await startDemoWorld(relay, options.seed);
    stopDemo = demo.stop;
    process.stdout.write(
      [
        `Tabletop Relay ${RELAY_VERSION} is running at ${relay.url} with the sandbox world "${demo.worldTitle}" connected.`,
        '',
        `API key (all scopes but execute-js): ${demo.apiKey}`,
        '',
        'Try it:',
        `  curl -H "x-api-key: ${demo.apiKey}" "${relay.url}/search?query=goblin"`,
        `  curl -N -H "x-api-key: ${demo.apiKey}" "${relay.url}/rolls/subscribe"`,
        `  curl -H "x-api-key: ${demo.apiKey}" -o sheet.png "${relay.url}/sheet?uuid=${demo.exampleActorUuid}"`,
        demo.sheetSource,
        `API reference: ${relay.url}/docs`,
        `Settings (one-time link): ${relay.createAdminLoginUrl()}`,
        '',
        `Data directory: ${dataDir}${temporary ? ' (temporary, removed on exit)' : ''}`,
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  } else {
    process.stdout.write(
      [
        `Tabletop Relay ${RELAY_VERSION} is running at ${relay.url}`,
        `Worlds connect to ${wsUrl} (set it as the module's relay URL, then press Pair).`,
        `Settings (one-time link): ${relay.createAdminLoginUrl()}`,
        `Admin API for scripts: ${relay.url}/admin/ with the token in ${join(dataDir, 'admin-token')}`,
        ...relay.status().lan.urls.map((url) => `On the LAN: ${url}`),
        `Data directory: ${dataDir}`,
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  }
}

await main();
