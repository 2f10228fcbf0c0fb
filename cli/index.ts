#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRelay, DEFAULT_HOST, DEFAULT_PORT, type Relay } from '../relay/relay.ts';
import { worldSocketUrl } from '../contracts/world-protocol.ts';
import { DEMO_MODULE_SETTINGS, readModuleSettings, type DemoModuleSetting } from './module-settings.ts';
import { openInBrowser } from './open-browser.ts';
import { INTEGRATION_PACKAGE_DIRS, SETTINGS_UI_DIR } from './project-folder.ts';
import { DataDirError, dataDirProblem, prepareDataDir } from '../relay/storage/data-dir.ts';
import { DataDirTakenError, lockDataDir, type DataDirLock } from '../relay/storage/data-dir-lock.ts';
import { RELAY_VERSION } from '../relay/version.ts';
import { OVERLAYS } from '../contracts/overlays.ts';
import { KEY_PRESETS } from '../contracts/scopes.ts';
import { callLocal, defaultDataDir, localRelay, localRelayUrl, stop } from './local-relay.ts';
import {
  approvePairRequest,
  callRelay,
  createKey,
  listPairRequests,
  printAdminToken,
  type HelperOptions,
} from './helpers.ts';

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
'npx tabletop-relay <command> [options]' runs the same commands, and these, which talk to the relay running on this
computer with the admin token from its data directory (--port, --data-dir as for settings), in any shell:
  admin-token                      Print the admin token, for scripts that call the admin API
  pair-requests                    List the worlds waiting for your approval: code, title, address, page
  approve [<code>]                 Approve a pair request; without a code, the only one waiting
  key create --name <name> (--preset <preset> | --scopes <a,b>) [--user <id or name>] [--world <client id>]
                                   Make an API key and print it; presets: ${KEY_PRESETS.map((preset) => preset.id).join(', ')}
  call <METHOD> <path> [<name>=<value> ...] (--key <key> | --admin) [--out <file>]
                                   Call the relay as a tool does (fields as a form) or as the admin (fields as JSON);
                                   print the answer, or write it to a file

Options:
  --port <number>      Port to listen on for this run (default: the port setting, ${DEFAULT_PORT} until changed
                       in the settings UI)
  --host <address>     Address to listen on (default ${DEFAULT_HOST}: this computer only)
  --lan                Also answer on this computer's LAN addresses, so players' tools can reach the relay
                       (the settings UI can switch this too)
  --data-dir <path>    Where keys, tokens and settings are kept, by one relay at a time
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
  --empty-encounters   demo only: start the sandbox world without its encounter, as a fresh world (the reference
                       relay's encounter tests expect none)
`;

/** The commands that stand in for terminal recipes (cli/helpers.ts), with what they were given. */
interface HelperRun {
  command: 'admin-token' | 'pair-requests' | 'approve' | 'key create' | 'call';
  args: string[];
  options: HelperOptions;
}

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The curl the demo's lines call: in Windows PowerShell 5 `curl` is Invoke-WebRequest, so there they name curl.exe,
 * which Windows 10 and later bring and cmd runs too. The lines quote only with double quotes and send forms, never JSON,
 * so cmd, PowerShell and POSIX shells read them alike.
 */
const CURL = process.platform === 'win32' ? 'curl.exe' : 'curl';

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
  emptyEncounters: boolean;
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

function helperRun(command: string, args: string[], values: Record<string, unknown>): HelperRun {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const port = text('port');
  const options: HelperOptions = {
    dataDir: text('data-dir'),
    port: port === undefined ? undefined : wholeNumberOption(port, 'port', DEFAULT_PORT, 65535),
    name: text('name'),
    preset: text('preset'),
    scopes: text('scopes'),
    user: text('user'),
    worlds: (values.world as string[] | undefined) ?? [],
    key: text('key'),
    admin: values.admin === true,
    out: text('out'),
  };
  if (command === 'key') {
    if (args[0] !== 'create') fail("Use 'key create --name <name> --preset <preset>'");
    return { command: 'key create', args: [], options };
  }
  if (command === 'call') {
    const [method = '', path = '', ...fields] = args;
    if (!HTTP_METHODS.includes(method.toUpperCase()) || !path.startsWith('/'))
      fail("Use 'call <METHOD> <path> [<name>=<value> ...]', e.g. call POST /roll formula=1d20+5 --key <key>");
    return { command, args: [method.toUpperCase(), path, ...fields], options };
  }
  return { command: command as HelperRun['command'], args, options };
}

const HELPERS = ['admin-token', 'pair-requests', 'approve', 'key', 'call'];

function readOptions(argv: string[]): CliOptions | HelperRun | 'help' {
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
        'empty-encounters': { type: 'boolean', default: false },
        name: { type: 'string' },
        toolsets: { type: 'string' },
        preset: { type: 'string' },
        scopes: { type: 'string' },
        user: { type: 'string' },
        world: { type: 'string', multiple: true },
        key: { type: 'string' },
        admin: { type: 'boolean', default: false },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') return 'help';
  if (HELPERS.includes(command)) return helperRun(command, positionals.slice(1), values);
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
    emptyEncounters: values['empty-encounters'] === true,
    name: values.name ?? 'AI assistant',
    toolsets: values.toolsets,
  };
}

/** The stdio bridge for AI assistants; it writes only MCP to standard output, and everything else to standard error. */
async function bridgeToAssistant(options: CliOptions): Promise<void> {
  const dataDir = options.dataDir ?? defaultDataDir();
  const { runBridge } = await import('./mcp-bridge.ts');
  await runBridge({
    baseUrl: localRelayUrl({ dataDir, port: options.port }),
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
  const relay = localRelay(options);
  const answer = await callLocal(relay, '/admin/login-links', {
    method: 'POST',
    headers: { authorization: `Bearer ${relay.adminToken}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await answer.json().catch(() => ({}))) as { url?: string; error?: string };
  if (!answer.ok || !body.url)
    stop(`The relay at ${relay.base} gave no link: ${body.error ?? `HTTP ${answer.status}`}`);
  process.stdout.write(`Settings (one-time link, valid for two minutes): ${body.url}\n`);
  if (await openInBrowser(body.url)) process.stdout.write('Opening it in your default browser.\n');
}

/**
 * Holds the data directory for this run, or stops naming the relay that holds it: two relays on one folder would
 * erase each other's changes.
 */
async function lockDataDirFor(
  options: CliOptions,
  dataDir: string,
  url: () => string | undefined,
): Promise<DataDirLock> {
  try {
    return await lockDataDir(dataDir, () => ({ pid: process.pid, program: `npm run ${options.command}`, url: url() }));
  } catch (error) {
    if (!(error instanceof DataDirTakenError)) throw error;
    stop(
      `${error.message}: two relays on one folder would erase each other's changes. Stop that one first, or give this one another folder with --data-dir.`,
    );
  }
}

/** Starts the relay, or stops with one line that says what to do when the data directory or the address cannot be used. */
async function startRelay(options: CliOptions, dataDir: string): Promise<{ relay: Relay; lock: DataDirLock }> {
  let relay: Relay | undefined;
  let lock: DataDirLock;
  try {
    prepareDataDir(dataDir);
    lock = await lockDataDirFor(options, dataDir, () => relay?.url);
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
  return { relay, lock };
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

async function runHelper({ command, args, options }: HelperRun): Promise<void> {
  switch (command) {
    case 'admin-token':
      return printAdminToken(options);
    case 'pair-requests':
      return listPairRequests(options);
    case 'approve':
      return approvePairRequest(options, args[0]);
    case 'key create':
      return createKey(options);
    case 'call':
      return callRelay(options, args[0]!, args[1]!, args.slice(2));
  }
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
  if ('args' in options) {
    await runHelper(options);
    return;
  }
  const temporary = options.command === 'demo' && !options.dataDir;
  const dataDir =
    options.dataDir ?? (temporary ? mkdtempSync(join(tmpdir(), 'tabletop-relay-demo-')) : defaultDataDir());
  // On every way out, a failed start included; 'exit' handlers run on process.exit and on an uncaught error alike.
  if (temporary) process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const { relay, lock } = await startRelay(options, dataDir);
  const wsUrl = worldSocketUrl(relay.url);
  let stopDemo = async () => {};
  stopOnSignal(async () => {
    await stopDemo();
    await relay.stop();
    await lock.release();
  });
  if (options.command === 'demo') {
    // The sandbox world is loaded only for the demo: every other command starts faster without it.
    const { DemoError, startDemoWorld } = await import('./demo.ts');
    const demo = await startDemoWorld(relay, options).catch(async (error: unknown) => {
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
        ...(options.emptyEncounters ? ['The sandbox world starts with no encounter.'] : []),
        '',
        'Try it:',
        `  ${CURL} -H "x-api-key: ${demo.apiKey}" "${relay.url}/search?query=goblin"`,
        `  ${CURL} -H "x-api-key: ${demo.apiKey}" -o sheet.png "${relay.url}/sheet?uuid=${demo.exampleActorUuid}"`,
        demo.sheetSource,
        'Watch live rolls (leave it running):',
        `  ${CURL} -N -H "x-api-key: ${demo.apiKey}" "${relay.url}/rolls/subscribe"`,
        'and in another terminal make one: only rolls posted to chat reach the stream, so createChatMessage is true:',
        `  ${CURL} -X POST -H "x-api-key: ${demo.apiKey}" -d formula=1d20+5 -d createChatMessage=true "${relay.url}/roll"`,
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
