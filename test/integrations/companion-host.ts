// A stand-in for Bitfocus Companion's side of a connection module, written from @companion-module/base 2's published
// typings (node_modules/@companion-module/base/dist/...):
// - Companion builds the module's default export with an InstanceContext (host-api/context.d.ts: `_isInstanceContext`,
//   `id`, `label`, `upgradeScripts`, and the set…/check…/updateStatus calls InstanceBase forwards to it,
//   module-api/base.js), then calls init(config, isFirstInit, secrets), configUpdated(config, secrets) after a change
//   and destroy() (module-api/base.d.ts); a `secret-text` field's value goes to the secrets, not the config
//   (module-api/input.d.ts, CompanionInputFieldSecret).
// - It runs an action's callback with a CompanionActionEvent and a context of type 'action' (module-api/action.d.ts).
// - It evaluates each feedback placed on a button when it is placed, when the definitions change and when the module
//   names its type in checkFeedbacks (or calls checkAllFeedbacks) (module-api/feedback.d.ts, base.d.ts).
// - It keeps only values of variables the module defined (`disableVariableValidation` is false by default; base.d.ts).
// - Its log sink is the global COMPANION_LOGGER (logging.js: "this should be replaced by the host application").
// Everything the module hands over is recorded with the time it came, for the tests to read.
import type {
  CompanionActionDefinitions,
  CompanionFeedbackDefinitions,
  CompanionOptionValues,
  CompanionPresetDefinitions,
  CompanionPresetSection,
  CompanionVariableDefinitions,
  CompanionVariableValue,
  InstanceBase,
  InstanceStatus,
  InstanceTypes,
  JsonObject,
} from '@companion-module/base';
import type { InstanceContext } from '@companion-module/base/host-api';

type ModuleClass = new (internal: unknown) => InstanceBase<any>;

export interface Recorded<T> {
  value: T;
  at: number;
}

export interface StatusUpdate {
  status: InstanceStatus;
  message: string | null;
}

export interface LogLine {
  level: string;
  message: string;
}

export interface PlacedFeedback {
  id: string;
  feedbackId: string;
  options: CompanionOptionValues;
  /** The callback's last answer: a boolean, or an advanced feedback's style; undefined before the first one. */
  value: unknown;
  evaluatedAt: number;
}

const NOT_SIMULATED = () => {
  throw new Error('The stand-in host has no shared UDP sockets');
};

export class CompanionHost {
  readonly statuses: Recorded<StatusUpdate>[] = [];
  readonly logs: LogLine[] = [];
  readonly variableSets: Recorded<Record<string, CompanionVariableValue>>[] = [];
  readonly feedbackChecks: Recorded<string[]>[] = [];
  /** Values the module set for variables it had not defined: Companion drops them. */
  readonly undefinedVariables: string[] = [];
  readonly variables = new Map<string, CompanionVariableValue>();
  readonly placed = new Map<string, PlacedFeedback>();
  actions: CompanionActionDefinitions = {};
  feedbacks: CompanionFeedbackDefinitions = {};
  variableDefinitions: CompanionVariableDefinitions = {};
  presets: { structure: CompanionPresetSection[]; presets: CompanionPresetDefinitions } = {
    structure: [],
    presets: {},
  };
  savedConfigs: { config: unknown; secrets: unknown }[] = [];
  readonly instance: InstanceBase<any>;
  #nextId = 0;

  constructor(Module: ModuleClass, label: string) {
    globalThis.COMPANION_LOGGER = (_source, level, message) => this.logs.push({ level, message });
    this.instance = new Module(this.#context(label));
  }

  /** Starts a connection as Companion does: builds the instance, then init with its config and secrets. */
  static async start(Module: ModuleClass, config: JsonObject, secrets: JsonObject, label = 'tabletop-relay') {
    const host = new CompanionHost(Module, label);
    await host.instance.init(config, true, secrets);
    return host;
  }

  get status(): StatusUpdate | undefined {
    return this.statuses.at(-1)?.value;
  }

  #context(label: string): InstanceContext<InstanceTypes> {
    const now = () => performance.now();
    return {
      _isInstanceContext: true,
      id: 'connection-under-test',
      label,
      upgradeScripts: [],
      saveConfig: (config, secrets) => this.savedConfigs.push({ config, secrets }),
      updateStatus: (status, message) => this.statuses.push({ value: { status, message }, at: now() }),
      oscSend: NOT_SIMULATED,
      recordAction: () => {},
      setActionDefinitions: (actions) => (this.actions = actions),
      subscribeActions: () => {},
      unsubscribeActions: () => {},
      setFeedbackDefinitions: (feedbacks) => {
        this.feedbacks = feedbacks;
        void this.#evaluate([...this.placed.values()]);
      },
      unsubscribeFeedbacks: () => {},
      checkFeedbacks: (types) => {
        this.feedbackChecks.push({ value: types, at: now() });
        void this.#evaluate([...this.placed.values()].filter((placed) => types.includes(placed.feedbackId)));
      },
      checkAllFeedbacks: () => void this.#evaluate([...this.placed.values()]),
      checkFeedbacksById: (ids) => void this.#evaluate(ids.flatMap((id) => this.placed.get(id) ?? [])),
      setPresetDefinitions: (structure, presets) => (this.presets = { structure, presets }),
      setVariableDefinitions: (definitions) => {
        this.variableDefinitions = definitions;
        for (const name of this.variables.keys()) if (!(name in definitions)) this.variables.delete(name);
      },
      setVariableValues: (values) => {
        const kept: Record<string, CompanionVariableValue> = {};
        for (const [name, value] of Object.entries(values)) {
          if (!(name in this.variableDefinitions)) this.undefinedVariables.push(name);
          else kept[name] = value;
        }
        for (const [name, value] of Object.entries(kept)) this.variables.set(name, value);
        this.variableSets.push({ value: kept, at: now() });
      },
      getVariableValue: (name) => this.variables.get(name) as never,
      sharedUdpSocketHandlers: new Map(),
      sharedUdpSocketJoin: NOT_SIMULATED,
      sharedUdpSocketLeave: NOT_SIMULATED,
      sharedUdpSocketSend: NOT_SIMULATED,
    };
  }

  /** Presses a button with this action, as Companion runs it; resolves when the module's callback did. */
  async runAction(actionId: string, options: CompanionOptionValues = {}): Promise<void> {
    const definition = this.actions[actionId];
    if (!definition) throw new Error(`The module defines no action ${actionId}`);
    const id = `action-${(this.#nextId += 1)}`;
    const event = { id, controlId: 'bank:1', actionId, options, surfaceId: 'stand-in' };
    await definition.callback(event, { type: 'action', setCustomVariableValue: () => {} });
  }

  /** Places a feedback on a button: Companion evaluates it at once and again whenever the module asks. */
  async placeFeedback(feedbackId: string, options: CompanionOptionValues = {}): Promise<PlacedFeedback> {
    if (!this.feedbacks[feedbackId]) throw new Error(`The module defines no feedback ${feedbackId}`);
    const placed: PlacedFeedback = {
      id: `feedback-${(this.#nextId += 1)}`,
      feedbackId,
      options,
      value: undefined,
      evaluatedAt: 0,
    };
    this.placed.set(placed.id, placed);
    await this.#evaluate([placed]);
    return placed;
  }

  async #evaluate(placed: PlacedFeedback[]): Promise<void> {
    await Promise.all(
      placed.map(async (feedback) => {
        const definition = this.feedbacks[feedback.feedbackId];
        if (!definition) return;
        const info = {
          type: definition.type,
          id: feedback.id,
          controlId: 'bank:1',
          feedbackId: feedback.feedbackId,
          options: feedback.options,
          previousOptions: null,
        };
        feedback.value = await (definition.callback as (info: unknown, context: unknown) => unknown)(info, {
          type: 'feedback',
        });
        feedback.evaluatedAt = performance.now();
      }),
    );
  }

  async updateConfig(config: JsonObject, secrets: JsonObject): Promise<void> {
    await this.instance.configUpdated(config, secrets);
  }

  async destroy(): Promise<void> {
    await this.instance.destroy();
    globalThis.COMPANION_LOGGER = undefined;
  }
}

/** Waits until `check` gives something other than undefined or false, and returns it with how long it took. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 3000,
): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return { value, ms: performance.now() - started };
    if (performance.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
