// A stand-in of the Stream Deck app, written from Elgato's plugin protocol (SDK 2):
// https://docs.elgato.com/streamdeck/sdk/references/websocket/plugin ("Registration", "Events received", "Commands
// sent") and https://docs.elgato.com/streamdeck/sdk/guides/settings. It starts a built plugin folder as the app does,
// speaks to it over the app's WebSocket, keeps what the app keeps (each key's title, image, state, touch-strip feedback,
// action settings, the plugin's global settings) and records every command the plugin sends, with its time.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';
import { readPluginFolder, type PluginFolder } from './plugin-folder.ts';
import {
  DEVICE_TYPE,
  DOCUMENTED_COMMANDS,
  type ActionEventMessage,
  type Controller,
  type Coordinates,
  type DeviceInfo,
  type PluginCommand,
  type RegistrationInfo,
} from './protocol.ts';

/** The app version the stand-in claims: 7.1 runs Node.js 20 and 24 plugins, and echoes the `id` of get*Settings. */
const APP_VERSION = '7.1.1.22340';
/** "-registerEvent": the event name the plugin must send its UUID with once connected. */
const REGISTER_EVENT = 'registerPlugin';
const START_TIMEOUT_MS = 10_000;
const DIAL_EVENTS = new Set(['dialDown', 'dialUp', 'dialRotate', 'touchTap']);

type JsonObject = Record<string, unknown>;

export interface RecordedCommand {
  /** performance.now() when the app received it. */
  at: number;
  command: PluginCommand;
}

/** One action placed on a device: what the app shows on the key (or dial and touch strip) and keeps for it. */
export interface ActionInstance {
  readonly action: string;
  readonly context: string;
  readonly device: string;
  readonly controller: Controller;
  readonly coordinates: Coordinates;
  settings: JsonObject;
  state: number;
  readonly stateCount: number;
  visible: boolean;
  /** Per state: the title and image the plugin set (undefined: the manifest's). */
  readonly titles: Array<string | undefined>;
  readonly images: Array<string | undefined>;
  /** The touch strip's layout and the values the plugin set on its items (Encoder only). */
  layout: string | undefined;
  feedback: JsonObject;
  readonly alerts: number[];
  readonly oks: number[];
}

export interface StreamDeckAppOptions {
  /** The built `<UUID>.sdPlugin` folder. */
  pluginDir: string;
  /** The plugin's global settings as the app stored them from an earlier run. */
  globalSettings?: JsonObject;
  /** Extra environment for the plugin process (the app passes its own environment). */
  env?: NodeJS.ProcessEnv;
}

/** Device ids and action contexts are opaque 32-digit hexadecimal strings in the app. */
const opaqueId = () => randomBytes(16).toString('hex').toUpperCase();

const DEVICES: Array<DeviceInfo & { id: string; dials: number }> = [
  { id: opaqueId(), name: 'Stream Deck', type: DEVICE_TYPE.streamDeck, size: { columns: 5, rows: 3 }, dials: 0 },
  { id: opaqueId(), name: 'Stream Deck +', type: DEVICE_TYPE.streamDeckPlus, size: { columns: 4, rows: 2 }, dials: 4 },
];

export class StreamDeckApp {
  readonly plugin: PluginFolder;
  readonly pluginUUID: string;
  readonly devices = DEVICES;
  /** Every event the app sent the plugin, in order. */
  readonly events: Array<{ at: number; message: Record<string, unknown> }> = [];
  /** Every command the plugin sent, in order. */
  readonly commands: RecordedCommand[] = [];
  /** Commands the protocol does not document, or that name a context the app never placed. */
  readonly rejected: RecordedCommand[] = [];
  /** Commands for a context after its willDisappear, which the app drops (one in flight then is no fault). */
  readonly ignored: RecordedCommand[] = [];
  readonly openedUrls: string[] = [];
  readonly logMessages: string[] = [];
  /** The plugin process's stdout and stderr, for failure messages. */
  output = '';
  globalSettings: JsonObject;
  /** Exits of the plugin process the app did not ask for. */
  readonly crashes: Array<number | null> = [];
  readonly #instances = new Map<string, ActionInstance>();
  readonly #waiters = new Set<() => void>();
  readonly #options: StreamDeckAppOptions;
  #server: WebSocketServer | undefined;
  #socket: WebSocket | undefined;
  #process: ChildProcess | undefined;
  #stopping = false;

  private constructor(options: StreamDeckAppOptions) {
    this.#options = options;
    this.plugin = readPluginFolder(options.pluginDir, APP_VERSION);
    this.pluginUUID = this.plugin.manifest.UUID;
    this.globalSettings = { ...options.globalSettings };
  }

  /** Opens the app's WebSocket, starts the plugin and waits for it to register. */
  static async start(options: StreamDeckAppOptions): Promise<StreamDeckApp> {
    const app = new StreamDeckApp(options);
    await app.#listen();
    await app.#launch();
    return app;
  }

  get registrationInfo(): RegistrationInfo {
    return {
      application: {
        font: 'Segoe UI',
        language: 'en',
        platform: 'windows',
        platformVersion: '10.0.22631',
        version: APP_VERSION,
      },
      colors: {
        buttonMouseOverBackgroundColor: '#464646FF',
        buttonPressedBackgroundColor: '#303030FF',
        buttonPressedBorderColor: '#646464FF',
        buttonPressedTextColor: '#969696FF',
        highlightColor: '#0078FFFF',
      },
      devicePixelRatio: 1,
      devices: this.devices.map(({ id, name, type, size }) => ({ id, name, type, size })),
      plugin: { uuid: this.pluginUUID, version: this.plugin.manifest.Version },
    };
  }

  async #listen(): Promise<void> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    this.#server = server;
    await once(server, 'listening');
    server.on('connection', (socket) => this.#accept(socket));
  }

  get #port(): number {
    return (this.#server!.address() as { port: number }).port;
  }

  /**
   * "Registration": the app runs the entry point with `-port`, `-pluginUUID`, `-registerEvent` and `-info`, in the
   * plugin's folder (the SDK reads manifest.json and writes logs/ there), on Node.js; this stand-in runs the project's.
   */
  async #launch(): Promise<void> {
    const args = [
      this.plugin.entryPoint,
      '-port',
      String(this.#port),
      '-pluginUUID',
      this.pluginUUID,
      '-registerEvent',
      REGISTER_EVENT,
      '-info',
      JSON.stringify(this.registrationInfo),
    ];
    const child = spawn(process.execPath, args, {
      cwd: this.plugin.dir,
      env: { ...process.env, ...this.#options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#process = child;
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('exit', (code) => {
      if (!this.#stopping && this.#process === child) this.crashes.push(code);
      this.#wake();
    });
    await this.waitFor(() => this.#socket !== undefined || this.crashes.length > 0, {
      timeoutMs: START_TIMEOUT_MS,
      what: 'the plugin to register',
    });
    if (!this.#socket) throw new Error(`the plugin exited before registering:\n${this.output}`);
  }

  #accept(socket: WebSocket): void {
    socket.once('message', (data) => {
      const message = JSON.parse(data.toString()) as { event?: string; uuid?: string };
      if (message.event !== REGISTER_EVENT || message.uuid !== this.pluginUUID) {
        socket.close(1008, 'registration expected');
        return;
      }
      this.#socket = socket;
      socket.on('message', (raw) => this.#receive(JSON.parse(raw.toString()) as PluginCommand));
      socket.on('close', () => {
        if (this.#socket === socket) this.#socket = undefined;
      });
      this.#afterRegistration();
      this.#wake();
    });
  }

  /** The app tells a newly registered plugin of the connected devices, then of the actions already on them. */
  #afterRegistration(): void {
    for (const { id, name, type, size } of this.devices)
      this.#send({ event: 'deviceDidConnect', device: id, deviceInfo: { name, type, size } });
    for (const instance of this.#instances.values())
      if (instance.visible) this.#sendActionEvent('willAppear', instance);
  }

  #send(message: Record<string, unknown>): void {
    if (!this.#socket) throw new Error('the plugin is not connected');
    this.#socket.send(JSON.stringify(message));
    this.events.push({ at: performance.now(), message });
  }

  /**
   * An action event's payload: settings, coordinates, controller and resources (7.1); a dial's own events (dialDown,
   * dialUp, dialRotate, touchTap) carry no more, every other event also `isInMultiAction` and, with two states, `state`.
   */
  #payload(instance: ActionInstance, event: string, extra: JsonObject): JsonObject {
    const payload: JsonObject = {
      controller: instance.controller,
      coordinates: instance.coordinates,
      settings: instance.settings,
      resources: {},
    };
    if (!DIAL_EVENTS.has(event)) {
      payload.isInMultiAction = false;
      if (instance.stateCount > 1) payload.state = instance.state;
    }
    return { ...payload, ...extra };
  }

  #sendActionEvent(event: string, instance: ActionInstance, extra: JsonObject = {}, id?: string): number {
    const message: ActionEventMessage & Record<string, unknown> = {
      event,
      action: instance.action,
      context: instance.context,
      device: instance.device,
      payload: this.#payload(instance, event, extra),
      ...(id === undefined ? {} : { id }),
    };
    this.#send(message);
    return performance.now();
  }

  #receive(command: PluginCommand): void {
    const recorded = { at: performance.now(), command };
    this.commands.push(recorded);
    const instance = command.context === undefined ? undefined : this.#instances.get(command.context);
    if (instance && !instance.visible) this.ignored.push(recorded);
    else if (!DOCUMENTED_COMMANDS.has(command.event) || !this.#apply(command)) this.rejected.push(recorded);
    this.#wake();
  }

  /** What the app does with each command; false when it would ignore it. */
  #apply(command: PluginCommand): boolean {
    const { event, payload } = command;
    if (event === 'openUrl') return this.openedUrls.push(payload.url) > 0;
    if (event === 'logMessage') return this.logMessages.push(payload.message) > 0;
    if (event === 'setGlobalSettings' || event === 'getGlobalSettings' || event === 'getSecrets')
      return this.#globalCommand(command);
    const instance = command.context === undefined ? undefined : this.#instances.get(command.context);
    if (!instance) return false;
    switch (event) {
      case 'setTitle':
        return this.#perState(instance.titles, instance, payload.state, payload.title);
      case 'setImage':
        return this.#perState(instance.images, instance, payload.state, payload.image);
      case 'setState':
        if (!Number.isInteger(payload.state) || payload.state < 0 || payload.state >= instance.stateCount) return false;
        instance.state = payload.state;
        return true;
      case 'showAlert':
        return instance.alerts.push(performance.now()) > 0;
      case 'showOk':
        // A key's check mark: the SDK offers it on keys only, a dial shows alerts but no check mark.
        if (instance.controller !== 'Keypad') return false;
        return instance.oks.push(performance.now()) > 0;
      case 'setFeedback':
        if (instance.controller !== 'Encoder') return false;
        instance.feedback = { ...instance.feedback, ...payload };
        return true;
      case 'setFeedbackLayout':
        if (instance.controller !== 'Encoder') return false;
        instance.layout = payload.layout;
        return true;
      case 'setSettings':
        // The settings guide: the plugin's own change is stored and told to the property inspector, not to the plugin.
        instance.settings = payload;
        return true;
      case 'getSettings':
        this.#sendActionEvent('didReceiveSettings', instance, {}, command.id);
        return true;
      default:
        return true;
    }
  }

  #globalCommand(command: PluginCommand): boolean {
    if (command.context !== this.pluginUUID) return false;
    if (command.event === 'setGlobalSettings') this.globalSettings = command.payload;
    else if (command.event === 'getGlobalSettings')
      this.#send({
        event: 'didReceiveGlobalSettings',
        payload: { settings: this.globalSettings },
        ...(command.id === undefined ? {} : { id: command.id }),
      });
    else this.#send({ event: 'didReceiveSecrets', payload: { secrets: {} } });
    return true;
  }

  /** setTitle and setImage: a `state` sets that state's, none sets every state's; undefined goes back to the manifest's. */
  #perState(
    values: Array<string | undefined>,
    instance: ActionInstance,
    state: number | undefined,
    value: string | undefined,
  ): boolean {
    if (state !== undefined && (state < 0 || state >= instance.stateCount)) return false;
    for (let index = 0; index < instance.stateCount; index += 1)
      if (state === undefined || state === index) values[index] = value;
    return true;
  }

  #wake(): void {
    for (const waiter of this.#waiters) waiter();
  }

  /** Resolves with the first truthy value of `check`, evaluated at each command the plugin sends and every 20 ms. */
  waitFor<T>(
    check: () => T | undefined | null | false,
    options: { timeoutMs?: number; what?: string } = {},
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? 3000;
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearInterval(poll);
        clearTimeout(timer);
        this.#waiters.delete(test);
      };
      const test = () => {
        let value: T | undefined | null | false;
        try {
          value = check();
        } catch (error) {
          finish();
          reject(error as Error);
          return;
        }
        if (!value) return;
        finish();
        resolve(value);
      };
      const poll = setInterval(test, 20);
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a condition'}`));
      }, timeoutMs);
      this.#waiters.add(test);
      test();
    });
  }

  /** The next free key (or dial) on a device, as a user would drag the action there. */
  #freeSlot(deviceId: string, controller: Controller): Coordinates {
    const device = this.devices.find((candidate) => candidate.id === deviceId)!;
    const taken = [...this.#instances.values()].filter(
      (instance) => instance.device === deviceId && instance.controller === controller,
    );
    const columns = controller === 'Encoder' ? device.dials : device.size.columns;
    const slots = controller === 'Encoder' ? device.dials : device.size.columns * device.size.rows;
    for (let slot = 0; slot < slots; slot += 1) {
      const coordinates = { column: slot % columns, row: Math.floor(slot / columns) };
      if (
        !taken.some(
          (instance) =>
            instance.coordinates.column === coordinates.column && instance.coordinates.row === coordinates.row,
        )
      )
        return coordinates;
    }
    throw new Error(`${device.name} has no free ${controller === 'Encoder' ? 'dial' : 'key'}`);
  }

  /**
   * Places an action on a device and sends `willAppear`: a Keypad action goes on the Stream Deck (15 keys), an Encoder
   * one on a dial of the Stream Deck + (the manifest must list the controller, as the app only lets it be dropped there).
   */
  appear(actionUuid: string, settings: JsonObject = {}, controller: Controller = 'Keypad'): ActionInstance {
    const manifestAction = this.plugin.action(actionUuid);
    const controllers = manifestAction.Controllers ?? ['Keypad'];
    if (!controllers.includes(controller))
      throw new Error(`${actionUuid} does not support ${controller}; its manifest lists ${controllers.join(', ')}`);
    const device = this.devices.find((candidate) =>
      controller === 'Encoder' ? candidate.dials > 0 : candidate.dials === 0,
    )!;
    const stateCount = manifestAction.States.length;
    const instance: ActionInstance = {
      action: actionUuid,
      context: opaqueId(),
      device: device.id,
      controller,
      coordinates: this.#freeSlot(device.id, controller),
      settings: { ...settings },
      state: 0,
      stateCount,
      visible: true,
      titles: Array.from({ length: stateCount }, () => undefined),
      images: Array.from({ length: stateCount }, () => undefined),
      layout: controller === 'Encoder' ? manifestAction.Encoder?.layout : undefined,
      feedback: {},
      alerts: [],
      oks: [],
    };
    this.#instances.set(instance.context, instance);
    this.#sendActionEvent('willAppear', instance);
    return instance;
  }

  /** The user leaves the page, or removes the action: `willDisappear`. */
  disappear(context: string): void {
    const instance = this.instance(context);
    instance.visible = false;
    this.#sendActionEvent('willDisappear', instance);
  }

  instance(context: string): ActionInstance {
    const instance = this.#instances.get(context);
    if (!instance) throw new Error(`no action with context ${context}`);
    return instance;
  }

  /** What the key shows now: the current state's title and image. */
  title(context: string): string | undefined {
    const instance = this.instance(context);
    return instance.titles[instance.state];
  }

  image(context: string): string | undefined {
    const instance = this.instance(context);
    return instance.images[instance.state];
  }

  keyDown(context: string): number {
    return this.#sendActionEvent('keyDown', this.#keypad(context));
  }

  /**
   * keyUp; then, for an action with two states and no `DisableAutomaticStates`, the app moves to the other state itself
   * (the manifest reference: the state toggles on a press unless that flag is set).
   */
  keyUp(context: string): number {
    const instance = this.#keypad(context);
    const sent = this.#sendActionEvent('keyUp', instance);
    const automatic = !this.plugin.action(instance.action).DisableAutomaticStates;
    if (instance.stateCount === 2 && automatic) instance.state = 1 - instance.state;
    return sent;
  }

  /** A press and release: keyDown and keyUp on a key, dialDown and dialUp on a dial. Returns when keyDown went out. */
  press(context: string): number {
    const instance = this.instance(context);
    if (instance.controller === 'Encoder') {
      const sent = this.#sendActionEvent('dialDown', instance);
      this.#sendActionEvent('dialUp', instance);
      return sent;
    }
    const sent = this.keyDown(context);
    this.keyUp(context);
    return sent;
  }

  /** Turns a dial: positive ticks clockwise. */
  rotate(context: string, ticks: number, pressed = false): number {
    return this.#sendActionEvent('dialRotate', this.#encoder(context), { ticks, pressed });
  }

  touchTap(context: string, tapPos: [number, number] = [100, 50], hold = false): number {
    return this.#sendActionEvent('touchTap', this.#encoder(context), { tapPos, hold });
  }

  /** The user edits the action in the property inspector: stored, and `didReceiveSettings` without an id. */
  changeSettings(context: string, settings: JsonObject): void {
    const instance = this.instance(context);
    instance.settings = { ...settings };
    this.#sendActionEvent('didReceiveSettings', instance);
  }

  /** The user edits the plugin's settings in a property inspector: stored, and `didReceiveGlobalSettings`. */
  changeGlobalSettings(settings: JsonObject): void {
    this.globalSettings = { ...settings };
    this.#send({ event: 'didReceiveGlobalSettings', payload: { settings: this.globalSettings } });
  }

  systemDidWakeUp(): void {
    this.#send({ event: 'systemDidWakeUp' });
  }

  #keypad(context: string): ActionInstance {
    const instance = this.instance(context);
    if (instance.controller !== 'Keypad') throw new Error(`${instance.action} is on a dial, not a key`);
    return instance;
  }

  #encoder(context: string): ActionInstance {
    const instance = this.instance(context);
    if (instance.controller !== 'Encoder') throw new Error(`${instance.action} is on a key, not a dial`);
    return instance;
  }

  /** The commands sent for one action since a mark (an index into `commands`), optionally of one kind. */
  commandsFor(context: string, event?: string, since = 0): RecordedCommand[] {
    return this.commands
      .slice(since)
      .filter((recorded) => recorded.command.context === context && (!event || recorded.command.event === event));
  }

  /** Stops the plugin process (as the app does when it quits) and the app's WebSocket. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#socket?.close();
    const child = this.#process;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(killer);
    }
    for (const client of this.#server?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
