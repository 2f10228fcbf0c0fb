// Event channels (module-operations.md §9): hooks are registered while a channel is enabled and turned into pushes.
import type { WorldMessage } from '../contracts/world-protocol.ts';
import { EVENT_CHANNELS, type EventChannel } from '../contracts/streams.ts';
import { messageRolls, serializeChatMessage } from './world/chat.ts';
import type { WorldDocument } from './world/document.ts';
import { MAX_ROLLS_STORED, type Game, type RollEntry } from './world/game.ts';
import type { HookListener } from './world/hooks.ts';
import type { PlainObject } from './world/objects.ts';

export const FORWARDED_HOOKS = [
  ...['Actor', 'Item', 'Token', 'Combat', 'Combatant', 'Scene', 'ActiveEffect', 'Playlist', 'PlaylistSound'].flatMap(
    (name) => [`create${name}`, `update${name}`, `delete${name}`],
  ),
  'combatStart',
  'combatTurn',
  'combatRound',
  'updateWorldTime',
  'pauseGame',
  'canvasReady',
];

export type PushSender = (message: WorldMessage) => void;

/** `serializeHookArg`: documents as source data, other objects JSON round-tripped, cycles as `String(arg)`. */
export function serializeHookArg(arg: unknown): unknown {
  if (arg === null || typeof arg !== 'object') return arg;
  try {
    if (typeof (arg as { toObject?: unknown }).toObject === 'function') return (arg as WorldDocument).toObject();
    return JSON.parse(JSON.stringify(arg));
  } catch {
    return String(arg);
  }
}

export class EventChannels {
  readonly #game: Game;
  readonly #send: PushSender;
  readonly #active = new Set<EventChannel>();
  readonly #handles = new Map<EventChannel, { name: string; id: number }[]>();
  #chatHookId: number | null = null;

  constructor(game: Game, send: PushSender) {
    this.#game = game;
    this.#send = send;
  }

  enabled(): EventChannel[] {
    return EVENT_CHANNELS.filter((channel) => this.#active.has(channel));
  }

  isEnabled(channel: EventChannel): boolean {
    return this.#active.has(channel);
  }

  enable(channel: EventChannel): void {
    if (this.#active.has(channel) || !EVENT_CHANNELS.includes(channel)) return;
    this.#active.add(channel);
    const handles: { name: string; id: number }[] = [];
    const on = (name: string, listener: HookListener) =>
      handles.push({ name, id: this.#game.hooks.on(name, listener) });
    if (channel === 'chat-events' || channel === 'roll-events') this.#ensureChatHook();
    LISTENERS[channel](this.#game, this.#send, on);
    this.#handles.set(channel, handles);
  }

  disable(channel: EventChannel): void {
    if (!this.#active.delete(channel)) return;
    if (!this.#active.has('chat-events') && !this.#active.has('roll-events') && this.#chatHookId !== null) {
      this.#game.hooks.off('createChatMessage', this.#chatHookId);
      this.#chatHookId = null;
    }
    for (const { name, id } of this.#handles.get(channel) ?? []) this.#game.hooks.off(name, id);
    this.#handles.delete(channel);
  }

  /** One createChatMessage hook shared by roll-events and chat-events, as in the module. */
  #ensureChatHook(): void {
    if (this.#chatHookId !== null) return;
    this.#chatHookId = this.#game.hooks.on('createChatMessage', (message) => {
      const document = message as WorldDocument;
      if (this.#active.has('roll-events') && messageRolls(document).length > 0) {
        const entry = rollEntryOf(this.#game, document);
        recordRoll(this.#game, entry, true);
        this.#send({ type: 'roll-data', data: entry });
      }
      if (this.#active.has('chat-events')) {
        this.#send({
          type: 'chat-event',
          data: { eventType: 'create', data: serializeChatMessage(this.#game, document) },
        });
      }
    });
  }
}

/** Adds an entry to `recentRolls`, newest first; hook entries replace an existing entry with the same id. */
export function recordRoll(game: Game, entry: RollEntry, replaceSameId: boolean): void {
  const existing = replaceSameId ? game.recentRolls.findIndex((roll) => roll.id === entry.id) : -1;
  if (existing !== -1) {
    game.recentRolls[existing] = entry;
    return;
  }
  game.recentRolls.unshift(entry);
  if (game.recentRolls.length > MAX_ROLLS_STORED) game.recentRolls.length = MAX_ROLLS_STORED;
}

function rollEntryOf(game: Game, message: WorldDocument): RollEntry {
  const roll = messageRolls(message)[0]!;
  const author = game.users.get(message.source.author as string);
  return {
    id: message.id,
    messageId: message.id,
    user: { id: author?.id, name: author?.name },
    speaker: message.source.speaker,
    flavor: (message.source.flavor as string) || '',
    rollTotal: roll.total,
    formula: roll.formula,
    isCritical: false,
    isFumble: false,
    dice: roll.dice.map((die) => ({
      faces: die.faces,
      results: die.results.map((r) => ({ result: r.result, active: r.active })),
    })),
    timestamp: game.now(),
  };
}

type Register = (name: string, listener: HookListener) => void;

const LISTENERS: Record<EventChannel, (game: Game, send: PushSender, on: Register) => void> = {
  'roll-events': () => {},
  'chat-events': (game, send, on) => {
    on('deleteChatMessage', (message) =>
      send({ type: 'chat-event', data: { eventType: 'delete', data: { id: (message as WorldDocument).id } } }),
    );
    on('updateChatMessage', (message) =>
      send({
        type: 'chat-event',
        data: { eventType: 'update', data: serializeChatMessage(game, message as WorldDocument) },
      }),
    );
  },
  hooks: (_game, send, on) => {
    for (const hook of FORWARDED_HOOKS)
      on(hook, (...args) => send({ type: 'hook-event', data: { hook, args: args.map(serializeHookArg) } }));
  },
  'combat-events': combatListeners,
  'actor-events': actorListeners,
  'scene-events': sceneListeners,
};

function combatantRow(game: Game, combatant: WorldDocument): PlainObject {
  return {
    id: combatant.id,
    name: combatantName(game, combatant),
    initiative: combatant.source.initiative,
    defeated: combatant.source.defeated,
    uuid: combatant.uuid,
  };
}

/** `Combatant#name`: its own name, else the token's, else the actor's (blank names fall through, as in core). */
export function combatantName(game: Game, combatant: WorldDocument): string {
  const token = game.scenes
    .get(combatant.source.sceneId as string)
    ?.collection('Token')
    .get(combatant.source.tokenId as string);
  const actor = token ? game.tokenActor(token) : game.actors.get(combatant.source.actorId as string);
  return (combatant.source.name as string) || token?.name || actor?.name || 'Unknown Combatant';
}

/** `combat.turns`: initiative descending (unrolled last), then name, then id. */
export function combatTurns(game: Game, combat: WorldDocument): WorldDocument[] {
  const initiative = (c: WorldDocument) => (typeof c.source.initiative === 'number' ? c.source.initiative : -Infinity);
  return combat
    .collection('Combatant')
    .contents.sort(
      (a, b) =>
        initiative(b) - initiative(a) ||
        combatantName(game, a).localeCompare(combatantName(game, b)) ||
        a.id.localeCompare(b.id),
    );
}

function combatState(game: Game, combat: WorldDocument): PlainObject {
  const round = combat.source.round as number;
  return {
    encounterId: combat.id,
    round,
    turn: combat.source.turn,
    started: round > 0,
    combatants: combatTurns(game, combat).map((c) => combatantRow(game, c)),
  };
}

function combatListeners(game: Game, send: PushSender, on: Register): void {
  on('combatStart', (combat) =>
    send({ type: 'combat-event', data: { eventType: 'start', ...combatState(game, combat as WorldDocument) } }),
  );
  on('updateCombat', (combat, changed) => {
    const changes = changed as PlainObject;
    if (!('turn' in changes) && !('round' in changes)) return;
    if ('started' in changes) return;
    send({ type: 'combat-event', data: { eventType: 'turn', ...combatState(game, combat as WorldDocument) } });
  });
  for (const [hook, eventType] of [
    ['createCombatant', 'combatant-add'],
    ['deleteCombatant', 'combatant-remove'],
  ] as const) {
    on(hook, (combatant) => {
      const document = combatant as WorldDocument;
      if (!document.parent) return;
      send({
        type: 'combat-event',
        data: { eventType, encounterId: document.parent.id, combatant: combatantRow(game, document) },
      });
    });
  }
  on('deleteCombat', (combat) => {
    const document = combat as WorldDocument;
    send({ type: 'combat-event', data: { eventType: 'end', encounterId: document.id, round: document.source.round } });
  });
}

function actorListeners(_game: Game, send: PushSender, on: Register): void {
  const sendActorEvent = (actor: WorldDocument | null, eventType: string, extra: PlainObject) => {
    if (!actor || actor.documentName !== 'Actor') return;
    send({ type: 'actor-event', data: { actorUuid: actor.uuid, eventType, ...extra } });
  };
  const ownedByActor = (document: unknown) => {
    const parent = (document as WorldDocument).parent;
    return parent?.documentName === 'Actor' ? parent : null;
  };
  on('updateActor', (actor, changes) =>
    sendActorEvent(actor as WorldDocument, 'update', { changes: serializeHookArg(changes) }),
  );
  on('createActiveEffect', (effect) =>
    sendActorEvent(ownedByActor(effect), 'effect-add', { effect: (effect as WorldDocument).toObject() }),
  );
  on('deleteActiveEffect', (effect) =>
    sendActorEvent(ownedByActor(effect), 'effect-remove', {
      effectId: (effect as WorldDocument).id,
      effectName: (effect as WorldDocument).name,
    }),
  );
  on('createItem', (item) =>
    sendActorEvent(ownedByActor(item), 'item-add', { item: (item as WorldDocument).toObject() }),
  );
  on('deleteItem', (item) =>
    sendActorEvent(ownedByActor(item), 'item-remove', {
      itemId: (item as WorldDocument).id,
      itemName: (item as WorldDocument).name,
    }),
  );
  on('updateItem', (item, changes) =>
    sendActorEvent(ownedByActor(item), 'item-update', {
      itemId: (item as WorldDocument).id,
      itemName: (item as WorldDocument).name,
      changes: serializeHookArg(changes),
    }),
  );
}

function sceneListeners(_game: Game, send: PushSender, on: Register): void {
  const sendSceneEvent = (scene: WorldDocument | null, eventType: string, extra: PlainObject) => {
    if (!scene) return;
    send({ type: 'scene-event', data: { sceneId: scene.id, eventType, ...extra } });
  };
  const placeables = [
    ['Token', 'token'],
    ['AmbientLight', 'light'],
    ['Wall', 'wall'],
  ] as const;
  for (const [documentName, prefix] of placeables) {
    on(`create${documentName}`, (doc) =>
      sendSceneEvent((doc as WorldDocument).parent, `${prefix}-create`, {
        [prefix]: (doc as WorldDocument).toObject(),
      }),
    );
    on(`update${documentName}`, (doc, changes) =>
      sendSceneEvent((doc as WorldDocument).parent, `${prefix}-update`, {
        [`${prefix}Id`]: (doc as WorldDocument).id,
        changes: serializeHookArg(changes),
      }),
    );
    on(`delete${documentName}`, (doc) => {
      const document = doc as WorldDocument;
      sendSceneEvent(
        document.parent,
        `${prefix}-delete`,
        prefix === 'token' ? { tokenId: document.id, tokenName: document.name } : { [`${prefix}Id`]: document.id },
      );
    });
  }
  on('activateScene', (scene) =>
    sendSceneEvent(scene as WorldDocument, 'scene-activate', { name: (scene as WorldDocument).name }),
  );
}
