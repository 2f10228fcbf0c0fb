import { DOCUMENT_TYPES } from '../../contracts/world-protocol.ts';
import { fieldsOf, listOf, textOf } from '../objects.ts';
import type { WorldAsk } from '../tabletop/world-ask.ts';
import { documentNameOf } from './documents.ts';

// How the route tables name the documents a call touches when its parameters do not give their uuids: the world is
// asked, as the GM, with the module's own read operations.

const CHAT_PAGE = 500;
const TOKEN_UUID = /^Scene\.[^.]+\.Token\.[^.]+$/;

/** Every `uuid` an answer names, at any depth, but compendium entries, which no call of the API changes. */
export function uuidsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(uuidsIn);
  const fields = fieldsOf(value);
  if (!fields) return [];
  const own = typeof fields.uuid === 'string' && !fields.uuid.startsWith('Compendium.') ? [fields.uuid] : [];
  return [...own, ...Object.values(fields).flatMap(uuidsIn)];
}

/** The selected tokens on the GM's canvas, or their actors. */
export async function selectedTokens(askWorld: WorldAsk, actors = false): Promise<string[]> {
  const answer = await askWorld('selected');
  return listOf(answer.selected)
    .map((row) => textOf(actors ? row.actorUuid : row.tokenUuid))
    .filter(Boolean);
}

/** The entity routes' target: a document by uuid, or the selected tokens (their actors with `actor`). */
export function targetsOf(
  p: { uuid?: string; selected?: boolean; actor?: boolean },
  askWorld: WorldAsk,
): string[] | Promise<string[]> {
  if (p.uuid !== undefined) return [p.uuid];
  return p.selected ? selectedTokens(askWorld, p.actor === true) : [];
}

/**
 * The documents with the actors of those that are tokens: a token's hit points and effects live on its actor (the
 * world's when linked, its own synthetic one otherwise).
 */
export async function withActors(uuids: readonly string[], askWorld: WorldAsk): Promise<string[]> {
  const actors = await Promise.all(
    uuids.filter((uuid) => TOKEN_UUID.test(uuid)).map((uuid) => actorOf(uuid, askWorld)),
  );
  return [...uuids, ...actors.filter((uuid): uuid is string => uuid !== undefined)];
}

async function actorOf(tokenUuid: string, askWorld: WorldAsk): Promise<string | undefined> {
  const token = fieldsOf((await askWorld('entity', { uuid: tokenUuid })).data);
  const actorId = textOf(token?.actorId);
  if (!actorId) return undefined;
  return token?.actorLink === true ? `Actor.${actorId}` : `${tokenUuid}.Actor.${actorId}`;
}

/** The combat by id, or the world's current one: where turns move and combatants come and go. */
export async function combatOf(encounterId: string | undefined, askWorld: WorldAsk): Promise<string[]> {
  if (encounterId !== undefined) return [`Combat.${encounterId}`];
  return currentCombats(askWorld);
}

/** The combats the world counts as current (`game.combat`): where a kill marks combatants defeated. */
export async function currentCombats(askWorld: WorldAsk): Promise<string[]> {
  const answer = await askWorld('encounters');
  return listOf(answer.encounters)
    .filter((combat) => combat.current === true)
    .map((combat) => `Combat.${textOf(combat.id)}`);
}

/** A scene by id, by name or the active one, as the scene routes name it. */
export async function sceneOf(
  p: { sceneId?: string; name?: string; active?: boolean },
  askWorld: WorldAsk,
): Promise<string[]> {
  if (p.sceneId !== undefined) return [`Scene.${p.sceneId}`];
  const answer = await askWorld('get-scene', p.name !== undefined ? { name: p.name } : { active: true }).catch(
    () => undefined,
  );
  const id = textOf(fieldsOf(answer?.data)?._id);
  return id ? [`Scene.${id}`] : [];
}

/** The scenes the world has active: switching scenes changes which one is. */
export async function activeScenes(askWorld: WorldAsk): Promise<string[]> {
  const answer = await askWorld('get-scene', { all: true });
  return listOf(answer.data)
    .filter((scene) => scene.active === true)
    .map((scene) => `Scene.${textOf(scene._id)}`);
}

/** A folder and everything in it, its subfolders' contents too: what deleting it with its contents takes. */
export async function folderWithContents(folderId: string, askWorld: WorldAsk): Promise<string[]> {
  const answer = await askWorld('structure', {
    path: `Folder.${folderId}`,
    recursive: true,
    recursiveDepth: 50,
    types: [...DOCUMENT_TYPES],
  }).catch(() => undefined);
  return [`Folder.${folderId}`, ...uuidsIn(answer?.data)];
}

/** Every message of the chat log, a page at a time. */
export async function chatLog(askWorld: WorldAsk): Promise<string[]> {
  const uuids: string[] = [];
  for (let offset = 0; ; offset += CHAT_PAGE) {
    const data = fieldsOf((await askWorld('chat-messages', { limit: CHAT_PAGE, offset })).data);
    const page = listOf(data?.messages);
    uuids.push(...page.map((message) => textOf(message.uuid)).filter(Boolean));
    if (page.length < CHAT_PAGE) return uuids;
  }
}

/** A world actor by uuid, or by its name as the dnd5e routes find it (the first, whatever the case). */
export async function actorNamed(uuid: string | undefined, name: string | undefined, askWorld: WorldAsk) {
  if (uuid !== undefined) return withActors([uuid], askWorld);
  if (name === undefined) return [];
  const answer = await askWorld('search', { query: name, filter: 'Actor', excludeCompendiums: true });
  const hit = listOf(answer.results).find(
    (row) => textOf(row.name).toLowerCase() === name.toLowerCase() && documentNameOf(textOf(row.uuid)) === 'Actor',
  );
  return hit ? [textOf(hit.uuid)] : [];
}
