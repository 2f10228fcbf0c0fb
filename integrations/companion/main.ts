// Bitfocus Companion module (module-base 2, Companion 4.3+): Companion imports this file's default export and builds
// one instance per connection; `npm run build:companion` bundles it into an importable package.
import {
  InstanceBase,
  InstanceStatus,
  type CompanionStaticUpgradeScript,
  type CompanionVariableValues,
  type SomeCompanionConfigField,
} from '@companion-module/base';
import type { ClientLogger } from '../client/log.ts';
import { RelayClient } from '../client/relay-client.ts';
import { WorldWatcher, type WorldSnapshot } from '../client/world-state.ts';
import { actionDefinitions, type ActionContext } from './actions.ts';
import { configFields, trackedActors, type ModuleConfig, type ModuleSecrets, type TrackedActor } from './config.ts';
import { FEEDBACK_INPUTS, feedbackDefinitions, type FeedbackId } from './feedbacks.ts';
import { presetDefinitions } from './presets.ts';
import { keyFromTheRelay } from './key-setup.ts';
import { connectionStatus, KEY_REQUEST_MESSAGES, NO_KEY_MESSAGE, type ConnectionStatus } from './status.ts';
import type { ModuleTypes } from './types.ts';
import { changedValues, variableDefinitions, variableValues } from './variables.ts';
import { choicesOf } from './world-view.ts';

export const UpgradeScripts: CompanionStaticUpgradeScript<ModuleConfig, ModuleSecrets>[] = [];

/** What was last handed to Companion, so that only changes are sent again. */
interface Shown {
  status?: ConnectionStatus;
  values: CompanionVariableValues;
  feedbackInputs: Partial<Record<FeedbackId, string>>;
  definitions?: string;
}

export default class TabletopRelayInstance extends InstanceBase<ModuleTypes> {
  #client = new RelayClient();
  #watcher: WorldWatcher | undefined;
  #stopWatching: (() => void) | undefined;
  #actors: TrackedActor[] = [];
  #keyRequest: AbortController | undefined;
  #noKeyMessage = NO_KEY_MESSAGE;
  #shown: Shown = { values: {}, feedbackInputs: {} };

  async init(config: ModuleConfig, _isFirstInit: boolean, secrets: ModuleSecrets | undefined): Promise<void> {
    this.#connect(config, secrets);
  }

  async configUpdated(config: ModuleConfig, secrets: ModuleSecrets | undefined): Promise<void> {
    this.#connect(config, secrets);
  }

  async destroy(): Promise<void> {
    this.#disconnect();
  }

  getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }

  get #snapshot(): WorldSnapshot {
    return this.#watcher?.snapshot ?? { relayUp: false, worldConnected: false, playlists: [], hitPoints: {} };
  }

  /** Companion's log, through the client's masking of the key. */
  get #logger(): ClientLogger {
    return { info: (message) => this.log('info', message), warn: (message) => this.log('warn', message) };
  }

  #connect(config: ModuleConfig, secrets: ModuleSecrets | undefined): void {
    this.#disconnect();
    const apiKey = secrets?.apiKey?.trim() || undefined;
    const client = new RelayClient({
      relayUrl: config.relayUrl,
      apiKey,
      clientId: config.clientId?.trim() || undefined,
      logger: this.#logger,
    });
    this.#client = client;
    this.#actors = trackedActors(config);
    this.#shown = { values: {}, feedbackInputs: {} };
    this.setVariableDefinitions(variableDefinitions(this.#actors));
    this.#noKeyMessage = NO_KEY_MESSAGE;
    if (!apiKey && config.requestKey !== false) this.#askForKey(config);
    if (apiKey) {
      const watcher = new WorldWatcher(client);
      this.#watcher = watcher;
      for (const actor of this.#actors) watcher.track(actor.uuid);
      this.#stopWatching = watcher.onChange(() => this.#show());
      client.log.info(`Connecting to Tabletop Relay at ${client.relayUrl}`);
      watcher.start();
    }
    this.#show();
  }

  /** The key-request flow: the status shows the code to approve; the approved key is saved as the connection's. */
  #askForKey(config: ModuleConfig): void {
    const abort = new AbortController();
    this.#keyRequest = abort;
    this.#noKeyMessage = KEY_REQUEST_MESSAGES.asking;
    const said = (message: string) => {
      this.#noKeyMessage = message;
      this.#show();
    };
    void keyFromTheRelay({
      relayUrl: this.#client.relayUrl,
      clientId: this.#client.clientId,
      log: this.#client.log,
      signal: abort.signal,
      onPending: (code) => said(KEY_REQUEST_MESSAGES.pending(code)),
    }).then((outcome) => {
      if (abort.signal.aborted || outcome === undefined) return;
      if (outcome.status === 'approved') {
        this.saveConfig(config, { apiKey: outcome.apiKey });
        this.#connect(config, { apiKey: outcome.apiKey });
      } else
        said(outcome.status === 'denied' ? KEY_REQUEST_MESSAGES.denied : KEY_REQUEST_MESSAGES.failed(outcome.detail));
    });
  }

  #disconnect(): void {
    this.#keyRequest?.abort();
    this.#keyRequest = undefined;
    this.#stopWatching?.();
    this.#watcher?.stop();
    this.#stopWatching = undefined;
    this.#watcher = undefined;
  }

  /** Hands Companion what changed in the world: status, variables, definitions whose choices moved, feedbacks. */
  #show(): void {
    const snapshot = this.#snapshot;
    this.#showStatus(connectionStatus(this.#client.hasKey, snapshot, this.#noKeyMessage));
    this.#showDefinitions(snapshot);
    const values = variableValues(snapshot, this.#actors);
    const changed = changedValues(values, this.#shown.values);
    this.#shown.values = values;
    if (Object.keys(changed).length > 0) this.setVariableValues(changed);
    const feedbacks = this.#changedFeedbacks(snapshot);
    if (feedbacks.length > 0) this.checkFeedbacks(...(feedbacks as [FeedbackId, ...FeedbackId[]]));
  }

  #showStatus(status: ConnectionStatus): void {
    const shown = this.#shown.status;
    if (shown?.status === status.status && shown.message === status.message) return;
    this.#shown.status = status;
    this.updateStatus(status.status, status.message);
    if (status.status !== InstanceStatus.Ok && status.message) this.#client.log.info(status.message);
  }

  #showDefinitions(snapshot: WorldSnapshot): void {
    const choices = choicesOf(snapshot, this.#actors);
    const key = JSON.stringify([this.label, choices]);
    if (this.#shown.definitions === key) return;
    this.#shown.definitions = key;
    this.setActionDefinitions(actionDefinitions(this.#actionContext, choices));
    this.setFeedbackDefinitions(feedbackDefinitions(() => this.#snapshot, choices));
    const { structure, presets } = presetDefinitions(this.label, choices, this.#actors);
    this.setPresetDefinitions(structure, presets);
  }

  #changedFeedbacks(snapshot: WorldSnapshot): FeedbackId[] {
    const changed: FeedbackId[] = [];
    for (const [id, input] of Object.entries(FEEDBACK_INPUTS) as [FeedbackId, (s: WorldSnapshot) => unknown][]) {
      const value = JSON.stringify(input(snapshot)) ?? '';
      if (this.#shown.feedbackInputs[id] !== value) changed.push(id);
      this.#shown.feedbackInputs[id] = value;
    }
    return changed;
  }

  get #actionContext(): ActionContext {
    return { client: () => this.#client, snapshot: () => this.#snapshot };
  }
}
