// GET /play/me: who the player page acts as, in which world, and which actors are theirs to pick from.
import type { PlayCharacter, PlaySession } from '../../contracts/play.ts';
import { fieldsOf, listOf, textOf } from '../objects.ts';
import { FIRST_GM_ROLE } from '../routing/player-view.ts';
import { ownsActor, type PlayViewer } from './viewer.ts';

export async function playSession(viewer: PlayViewer): Promise<PlaySession> {
  const { world, user } = viewer;
  const [found, assigned] = await Promise.all([ownedActors(viewer, user.id), assignedCharacter(viewer, user.id)]);
  const owned = assigned && !found.some((actor) => actor.uuid === assigned.uuid) ? [assigned, ...found] : found;
  return {
    user,
    world: {
      clientId: world.clientId,
      title: world.metadata.worldTitle || world.clientId,
      systemId: world.metadata.systemId ?? '',
    },
    gmIds: world.players.filter((player) => player.role >= FIRST_GM_ROLE).map((player) => player.id),
    characters: [
      ...owned.filter((actor) => actor.uuid === assigned?.uuid),
      ...owned.filter((actor) => actor.uuid !== assigned?.uuid),
    ],
  };
}

/** The world's actors the user owns, found by the world's own search as the user. */
async function ownedActors(viewer: PlayViewer, userId: string): Promise<PlayCharacter[]> {
  const answer = await viewer.ask('search', {
    filter: 'documentType:Actor',
    excludeCompendiums: true,
    minified: true,
    limit: 500,
    ownedByUserId: userId,
  });
  return listOf(answer.results)
    .filter((result) => typeof result.uuid === 'string' && result.uuid.startsWith('Actor.'))
    .map((result) => ({ uuid: result.uuid as string, name: textOf(result.name) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The character Foundry assigns the user (their own user's `character`), read as the user, when they own it: the one
 * the page opens first, listed even where the world's search leaves it out.
 */
async function assignedCharacter(viewer: PlayViewer, userId: string): Promise<PlayCharacter | undefined> {
  try {
    const character = fieldsOf((await viewer.askAsGm('get-user', { id: userId })).data)?.character;
    if (typeof character !== 'string' || character === '') return undefined;
    const uuid = `Actor.${character.split('.').pop()}`;
    const actor = fieldsOf((await viewer.ask('entity', { uuid })).data);
    if (!actor || !(await ownsActor(viewer, uuid))) return undefined;
    return { uuid, name: textOf(actor.name) };
  } catch {
    return undefined;
  }
}
