#!/usr/bin/env node
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRelay, DEFAULT_HOST, DEFAULT_PORT, type Relay } from '../relay/relay.ts';
import { worldSocketUrl } from '../contracts/world-protocol.ts';
import { DEMO_MODULE_SETTINGS, readModuleSettings, type DemoModuleSetting } from './module-settings.ts';
import { openInBrowser } from './open-browser.ts';
import { INTEGRATION_PACKAGE_DIRS, SETTINGS_UI_DIR } from './project-folder.ts';
import { DataDirError, dataDirProblem, prepareDataDir } from '../relay/storage/data-dir.ts';
import { RELAY_VERSION } from '../relay/version.ts';
import { OVERLAYS } from '../contracts/overlays.ts';

const HELP = `Tabletop Relay ${RELAY_VERSION}: a local relay between Foundry VTT worlds and your tools.

Usage, in the project folder (npm runs it on the project's own Node 24):
  npm run serve -- [options]       Run the relay; worlds connect to ws://<host>:<port>/relay
  npm run demo -- [options]        Run the relay with the built-in sandbox world connected, and print a ready API key
  npm run settings -- [--port <number>] [--data-dir <path>]
                                   Open the settings UI of the relay running on this computer: prints a new one-time
                                   sign-in link and opens it in the default browser (login-link is the same command)
  npx tabletop-relay mcp [--name <name>] [--toolsets <list>] [--port <number>] [--data-dir <path>]
                                   Serve the relay's tools to an AI assistant over standard input and output (MCP),
                                   for assistants that start a program (Claude Desktop). The first run asks the GM for
                                   a key (approve it in the settings under AI assistants) and keeps it in the data
                                   directory; --toolsets picks among play, prepare, dnd5e, files, delete, scripts
  npm run serve -- --help          Show this help
'npx tabletop-relay <command> [options]' runs the same commands.

Options:
  --port <number>      Port to listen on for this run (default: the port setting, ${DEFAULT_PORT} until changed
                       in the settings UI)
  --host <address>     Address to listen on (default ${DEFAULT_HOST}: this computer only)
  --lan                Also answer on this computer's LAN addresses, so players' tools can reach the relay
                       (the settings UI can switch this too)
  --data-dir <path>    Where keys, tokens and settings are kept
                       (serve: default ~/.local/share/tabletop-relay; demo: a fresh temporary folder)
  --seed <number>      demo only: seed of the sandbox world (default 42)
  --foundry-version <version>
                       demo only: the Foundry version the sandbox world imitates, 13.x or 14.x (default 13.348);
                       a 14 world has scene levels, status effects keyed by id and no measured templates
  --module-settings <names>
                       demo only: turn these settings of the module on in the sandbox world, comma-separated (all
                       off by default, as the module ships): allow-macro-write (create, update and delete macros),
                       allow-macro-execute (POST /macro/{uuid}/execute), allow-execute-js (POST /execute-js, and the
                       demo key gets the execute-js scope). Scripts and macros then run inside the demo's process.
  --keep-online        demo only: keep the sandbox world online through a world keeper (needs Chrome or Chromium):
                       the sandbox's own GM link leaves after 10 s and the keeper takes the world over
`;

interface CliOptions {
  command: 'serve' | 'demo' | 'settings' | 'mcp';
  port: number | undefined;
  host: string | undefined;
  lan: boolean;
  dataDir: string | undefined;
  seed: number;
  foundryVersion: string;
  moduleSettings: DemoModuleSetting[];
  keepOnline: boolean;
  /** mcp: how the assistant is named on the approval card, and the toolsets it asks for. */
  name: string;
  toolsets: string | undefined;
}

const HELP_HINT = "Run 'npm run serve -- --help' in the project folder for the commands and options.";

/** A wrong command line: the message and where the options are explained, exit code 2. */
function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP_HINT}\n`);
  process.exit(2);
}

/** Something the GM can fix outside the command line: one line that says what to do, no stack trace, exit code 1. */
function stop(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function wholeNumberOption(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > max)
    fail(`--${name} must be a whole number from 0 to ${max}, not '${value}'`);
  return number;
}

/** The Foundry generations the sandbox world can imitate; any build of each is accepted. */
const SUPPORTED_FOUNDRY_VERSIONS = /^1[34]\.\d{1,4}$/;

function demoFoundryVersion(value: string | undefined): string {
  if (value === undefined) return '13.348';
  if (!SUPPORTED_FOUNDRY_VERSIONS.test(value))
    fail(`--foundry-version must be a Foundry 13 or 14 version such as 13.348 or 14.366, not '${value}'`);
  return value;
}

function demoModuleSettings(list: string | undefined): DemoModuleSetting[] {
  if (list === undefined) return [];
  const read = readModuleSettings(list);
  if ('unknown' in read)
    fail(`--module-settings has no '${read.unknown}': use ${Object.keys(DEMO_MODULE_SETTINGS).join(', ')}`);
  return read.settings;
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
        'foundry-version': { type: 'string' },
        'module-settings': { type: 'string' },
        'keep-online': { type: 'boolean', default: false },
        name: { type: 'string' },
        toolsets: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') return 'help';
  if (!['serve', 'demo', 'settings', 'login-link', 'mcp'].includes(command)) fail(`Unknown command '${command}'`);
  if (values.lan && values.host) fail('Give either --lan or --host, not both');
  return {
    command: command === 'login-link' ? 'settings' : (command as CliOptions['command']),
    port: values.port === undefined ? undefined : wholeNumberOption(values.port, 'port', DEFAULT_PORT, 65535),
    host: values.host,
    lan: values.lan === true,
    dataDir: values['data-dir'],
    seed: wholeNumberOption(values.seed, 'seed', 42, 2 ** 31),
    foundryVersion: demoFoundryVersion(values['foundry-version']),
    moduleSettings: demoModuleSettings(values['module-settings']),
    keepOnline: values['keep-online'] === true,
    name: values.name ?? 'AI assistant',
    toolsets: values.toolsets,
  };
}

function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'tabletop-relay');
}

function readJsonIn(dataDir: string, name: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, name), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The relay running on this computer with this data directory: its port from the command line or its settings. */
function localRelayUrl(options: CliOptions, dataDir: string): string {
  const storedPort = readJsonIn(dataDir, 'settings.json')?.port;
  return `http://${DEFAULT_HOST}:${options.port ?? (typeof storedPort === 'number' ? storedPort : DEFAULT_PORT)}`;
}

/** The stdio bridge for AI assistants; it writes only MCP to standard output, and everything else to standard error. */
async function bridgeToAssistant(options: CliOptions): Promise<void> {
  const dataDir = options.dataDir ?? defaultDataDir();
  const { runBridge } = await import('./mcp-bridge.ts');
  await runBridge({
    baseUrl: localRelayUrl(options, dataDir),
    dataDir,
    name: options.name,
    toolsets: options.toolsets,
    say: (line) => process.stderr.write(`${line}\n`),
  }).catch((error: unknown) => stop(`Tabletop Relay: ${(error as Error).message}`));
}

/**
 * Asks the running relay for a new sign-in link with the admin token from its data directory, prints it and opens it in
 * the default browser. The token goes to 127.0.0.1 only, as with any admin script.
 */
async function openSettings(options: CliOptions): Promise<void> {
  const dataDir = options.dataDir ?? defaultDataDir();
  const token = readJsonIn(dataDir, 'admin-token')?.token;
  if (typeof token !== 'string') {
    stop(
      `No admin token in ${dataDir}: start the relay with 'npm run serve', or give its data directory with --data-dir.`,
    );
  }
  const base = localRelayUrl(options, dataDir);
  let answer: Response;
  try {
    answer = await fetch(`${base}/admin/login-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
  } catch {
    stop(
      `No Tabletop Relay answers at ${base}: start it with 'npm run serve', or give the port it listens on with --port.`,
    );
  }
  const body = (await answer.json().catch(() => ({}))) as { url?: string; error?: string };
  if (!answer.ok || !body.url) stop(`The relay at ${base} gave no link: ${body.error ?? `HTTP ${answer.status}`}`);
  process.stdout.write(`Settings (one-time link, valid for two minutes): ${body.url}\n`);
  if (await openInBrowser(body.url)) process.stdout.write('Opening it in your default browser.\n');
}

/** Starts the relay, or stops with one line that says what to do when the data directory or the address cannot be used. */
async function startRelay(options: CliOptions, dataDir: string): Promise<Relay> {
  let relay: Relay;
  try {
    prepareDataDir(dataDir);
    relay = createRelay({
      dataDir,
      port: options.port,
      host: options.host,
      settings: options.lan ? { lanAccess: true } : {},
      settingsUi: { dir: SETTINGS_UI_DIR },
      integrationPackages: INTEGRATION_PACKAGE_DIRS,
    });
  } catch (error) {
    stop(error instanceof DataDirError ? error.message : dataDirProblem(dataDir, error));
  }
  try {
    await relay.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      stop(`Port ${relay.port} is already in use: is Tabletop Relay already running? Pick another with --port.`);
    if (code === 'EADDRNOTAVAIL')
      stop(`This computer has no address ${options.host ?? DEFAULT_HOST}; use --host 127.0.0.1 or --lan.`);
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
  if (options.command === 'settings') {
    await openSettings(options);
    return;
  }
  if (options.command === 'mcp') {
    await bridgeToAssistant(options);
    return;
  }
  const temporary = options.command === 'demo' && !options.dataDir;
  const dataDir =
    options.dataDir ?? (temporary ? mkdtempSync(join(tmpdir(), 'tabletop-relay-demo-')) : defaultDataDir());
  // On every way out, a failed start included; 'exit' handlers run on process.exit and on an uncaught error alike.
  if (temporary) process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const relay = await startRelay(options, dataDir);
  const wsUrl = worldSocketUrl(relay.url);
  let stopDemo = async () => {};
  stopOnSignal(async () => {
    await stopDemo();
    await relay.stop();
  });
  if (options.command === 'demo') {
    // The sandbox world is loaded only for the demo: every other command starts faster without it.
    const { DemoError, startDemoWorld } = await import('./demo.ts');
    const demo = await startDemoWorld(
      relay,
      options.seed,
      options.moduleSettings,
      options.foundryVersion,
      options.keepOnline,
    ).catch(async (error: unknown) => {
      if (!(error instanceof DemoError)) throw error;
      await relay.stop();
      stop(error.message);
    });
    stopDemo = demo.stop;
    process.stdout.write(
      [
        `Tabletop Relay ${RELAY_VERSION} is running at ${relay.url} with the sandbox world "${demo.worldTitle}" connected.`,
        '',
        `API key (${options.moduleSettings.includes('allow-execute-js') ? 'all scopes' : 'all scopes but execute-js'}): ${demo.apiKey}`,
        ...(options.moduleSettings.length > 0 ? [`Module settings on: ${options.moduleSettings.join(', ')}`] : []),
        '',
        'Try it:',
        `  curl -H "x-api-key: ${demo.apiKey}" "${relay.url}/search?query=goblin"`,
        `  curl -H "x-api-key: ${demo.apiKey}" -o sheet.png "${relay.url}/sheet?uuid=${demo.exampleActorUuid}"`,
        demo.sheetSource,
        'Watch live rolls (leave it running):',
        `  curl -N -H "x-api-key: ${demo.apiKey}" "${relay.url}/rolls/subscribe"`,
        'and in another terminal make one: only rolls posted to chat reach the stream, so createChatMessage is true:',
        `  curl -X POST -H "x-api-key: ${demo.apiKey}" -H "content-type: application/json" -d '{"formula":"1d20+5","createChatMessage":true}' "${relay.url}/roll"`,
        `See the rolls as a stream overlay (open it in a browser, or add it to OBS as a Browser source, ${OVERLAYS.dice.size.width}×${OVERLAYS.dice.size.height}):`,
        `  ${demo.diceOverlayUrl}`,
        `API reference: ${relay.url}/docs`,
        `Settings (one-time link): ${relay.createAdminLoginUrl()}`,
        ...(demo.keeperNote ? ['', demo.keeperNote] : []),
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
