// The answers the relay sorts before they reach a key bound to a player: those the world's module gives as the GM sees
// them whatever user it is sent (module-operations.md §3.2, module-protocol.md §4.11). Each keeps what that player
// sees in Foundry and drops the rest; what it needs to know besides the answer it asks the world as the GM.
import { HttpError } from '../errors.ts';
import type { PlayerSortContext, PlayerView } from '../routing/route.ts';
import { isUser, seenBy } from './audience.ts';
import { inTurnOrder } from './turn-order.ts';
import { fieldsOf, listOf } from '../objects.ts';

type Fields = Record<string, unknown>;

/** Foundry's ownership levels (`CONST.DOCUMENT_OWNERSHIP_LEVELS`). */
const LIMITED = 1;
const OWNER = 3;
/** `CONST.WALL_DOOR_TYPES.SECRET`: a door the players see as a plain wall. */
const SECRET_DOOR = 2;
/** How far back the chat log is read for the messages recent rolls were posted as (the module keeps 20 rolls). */
const CHAT_WINDOW = 500;
const RECENT_ROLLS = 20;

/** A document's ownership level for the user (`ownership` by user id, then `default`), as Foundry's data holds it. */
function levelOf(document: Fields, userId: string): number {
  const ownership = fieldsOf(document.ownership) ?? {};
  const level = ownership[userId] ?? ownership.default;
  return typeof level === 'number' ? level : 0;
}

// Rolls: the player's own, and those of chat messages the player sees. A roll never posted to chat, or posted as a
// message the relay cannot find, is the GM's alone.

async function rollsSeenBy(entries: Fields[], context: PlayerSortContext): Promise<Fields[]> {
  const { player, services, clientId } = context;
  if (entries.every((entry) => isUser(entry.user, player.id))) return entries;
  const reply = await context.askWorld('chat-messages', { limit: CHAT_WINDOW, offset: 0 });
  const messages = new Map(listOf(fieldsOf(reply.data)?.messages).map((message) => [message.id, message]));
  return entries.filter((entry) => {
    if (isUser(entry.user, player.id)) return true;
    const message = messages.get(services.rollIds.messageIdOf(clientId, entry));
    return message !== undefined && seenBy(message, player.id);
  });
}

/** GET /rolls: the recent rolls the player sees (the route asks the world for all 20, then keeps `limit`). */
export const recentRollsSeen: PlayerView = {
  sorted: 'the rolls the user made, and those of chat messages they see',
  sort: async (answer, context) =>
    Array.isArray(answer.data) ? { ...answer, data: await rollsSeenBy(listOf(answer.data), context) } : answer,
};

/** GET /lastroll: the most recent roll the player sees, which need not be the world's last. */
export const lastRollSeen: PlayerView = {
  sorted: 'the most recent roll the user made or whose chat message they see',
  sort: async (answer, context) => {
    const last = fieldsOf(answer.data);
    if (!last || isUser(last.user, context.player.id)) return answer;
    const recent = await context.askWorld('rolls', { limit: RECENT_ROLLS });
    const [seen] = await rollsSeenBy(listOf(recent.data), context);
    return { ...answer, data: seen ?? null };
  },
};

// Combats: a combatant the GM hid shows only to its owner (`Combatant#visible`); the turn points at the same
// combatant in the order the player sees, or at none while a hidden one has it.

/** GET /encounters. */
export const encountersSeen = {
  sorted: "no combatant the GM hid but the user's own, the turn in the order the user sees",
  sort: async (answer, context) => {
    if (!Array.isArray(answer.encounters)) return answer;
    const encounters = listOf(answer.encounters);
    const hidden = encounters.flatMap((encounter) =>
      listOf(encounter.combatants).filter((combatant) => combatant.hidden === true),
    );
    if (hidden.length === 0) return answer;
    const owned = await actorsOwnedBy(hidden, context);
    const shown = (combatant: Fields) => combatant.hidden !== true || owned.has(combatant.actorUuid);
    return { ...answer, encounters: encounters.map((encounter) => encounterAsSeen(encounter, shown)) };
  },
} satisfies PlayerView;

function encounterAsSeen(encounter: Fields, shown: (combatant: Fields) => boolean): Fields {
  const combatants = listOf(encounter.combatants);
  if (combatants.every(shown)) return encounter;
  const order = inTurnOrder(combatants);
  const current = typeof encounter.turn === 'number' ? order[encounter.turn] : undefined;
  const shownOrder = order.filter(shown);
  return {
    ...encounter,
    combatants: combatants.filter(shown),
    turn: current && shown(current) ? shownOrder.indexOf(current) : null,
  };
}

/** The actor UUIDs, among the combatants', that the player owns. */
export async function actorsOwnedBy(combatants: Fields[], context: PlayerSortContext): Promise<Set<unknown>> {
  const uuids = [...new Set(combatants.map((combatant) => combatant.actorUuid))].filter(
    (uuid): uuid is string => typeof uuid === 'string' && uuid !== '',
  );
  const owned = await Promise.all(
    uuids.map(async (uuid) => {
      const actor = await context.askWorld('entity', { uuid }).catch(() => undefined);
      const data = fieldsOf(actor?.data);
      return data && levelOf(data, context.player.id) >= OWNER ? uuid : undefined;
    }),
  );
  return new Set(owned.filter((uuid) => uuid !== undefined));
}

// Scenes: a player views the active scene, and any other they hold at least LIMITED on (the scene's `ownership`).
// Within one, the canvas shows them no hidden placeable, a secret door as a wall, and a map note only when they may
// see its journal entry.

async function requireSceneView(sceneId: unknown, context: PlayerSortContext): Promise<void> {
  const scene =
    typeof sceneId === 'string'
      ? fieldsOf((await context.askWorld('get-scene', { sceneId }).catch(() => undefined))?.data)
      : undefined;
  if (scene && (scene.active === true || levelOf(scene, context.player.id) >= LIMITED)) return;
  throw new HttpError(
    403,
    `This key acts as ${context.player.name}, who may not view that scene in Foundry: ask for the active scene or one the GM shared with them`,
  );
}

/** GET /scene/image/raw: the background of a scene the player may view. */
export const sceneImageSeen: PlayerView = {
  sorted: 'the background of the active scene, or of one the user holds at least LIMITED on, only',
  sort: async (answer, context) => {
    await requireSceneView(fieldsOf(answer.data)?.sceneId, context);
    return answer;
  },
};

/** GET /canvas/{documentType}. */
export const canvasDocumentsSeen: PlayerView = {
  sorted:
    'the documents of a scene the user may view only, without hidden placeables, secret doors as walls, notes of journal entries they see',
  sort: async (answer, context) => {
    await requireSceneView(answer.sceneId, context);
    if (!Array.isArray(answer.data)) return answer;
    const shown = listOf(answer.data).filter((document) => document.hidden !== true);
    const data =
      answer.documentType === 'walls'
        ? shown.map((wall) => (wall.door === SECRET_DOOR ? { ...wall, door: 0 } : wall))
        : answer.documentType === 'notes'
          ? await notesSeenBy(shown, context)
          : shown;
    return { ...answer, data };
  },
};

async function notesSeenBy(notes: Fields[], context: PlayerSortContext): Promise<Fields[]> {
  const seen = await Promise.all(
    notes.map(async (note) => {
      if (typeof note.entryId !== 'string' || note.entryId === '') return true;
      return context
        .askWorld('entity', { uuid: `JournalEntry.${note.entryId}`, userId: context.player.id })
        .then(() => true)
        .catch(() => false);
    }),
  );
  return notes.filter((_note, index) => seen[index]);
}

/**
 * GET /measure-distance: an end named by a token (uuid or name) must be where a token the player sees stands, or the
 * token is not found, as the world says of one that is not there: the answer gives the named token's position.
 */
export const distanceSeen: PlayerView = {
  sorted: 'distances on a scene the user may view, to and from tokens the user sees',
  sort: async (answer, context) => {
    const data = fieldsOf(answer.data) ?? {};
    await requireSceneView(data.sceneId, context);
    const named = (['origin', 'target'] as const).filter(
      (end) => context.parameters[`${end}Uuid`] !== undefined || context.parameters[`${end}Name`] !== undefined,
    );
    if (named.length === 0) return answer;
    const tokens = listOf(
      (
        await context.askWorld('get-canvas-documents', {
          documentType: 'tokens',
          className: 'Token',
          sceneId: data.sceneId,
        })
      ).data,
    );
    for (const end of named) {
      const point = fieldsOf(data[end]);
      const seenThere = tokens.some((token) => token.hidden !== true && token.x === point?.x && token.y === point?.y);
      if (seenThere) continue;
      const asked = context.parameters[`${end}Uuid`] ?? context.parameters[`${end}Name`];
      throw new HttpError(400, `${end === 'origin' ? 'Origin' : 'Target'} token not found: ${String(asked)}`);
    }
    return answer;
  },
};
