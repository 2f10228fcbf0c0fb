// Things players and the GM do at the table, made to happen on demand: each goes through the document lifecycle,
// so it fires the same hooks (and therefore the same pushes) as in a real world.
import { evaluateRoll } from './dice.ts';
import { createChatMessage, type ChatSpeaker } from './world/chat.ts';
import { beginCombat, nextTurn, rollInitiative } from './world/combat.ts';
import type { WorldDocument } from './world/document.ts';
import type { Game } from './world/game.ts';
import type { PlainObject } from './world/objects.ts';
import { resolveUser } from './world/permissions.ts';
import { activateScene } from './world/scenes.ts';
import { playAll, playNext, PLAYLIST_MODES } from './world/playlists.ts';

export interface Simulation {
  playerRoll(userName: string, formula: string, flavor?: string): WorldDocument;
  chat(userName: string, content: string): WorldDocument;
  moveToken(tokenId: string, x: number, y: number): PlainObject | null;
  updateActor(actorId: string, changes: PlainObject): PlainObject | null;
  activateScene(sceneId: string): void;
  startCombat(): WorldDocument;
  nextTurn(): WorldDocument;
  endCombat(): void;
  setPaused(paused: boolean): void;
  /** The GM's music moves on: the next track of the playing playlist, or the first playlist that can play starts. */
  changeTrack(): void;
}

function userNamed(game: Game, name: string): WorldDocument {
  const user = resolveUser(game, name);
  if (!user) throw new Error(`User not found: ${name}`);
  return user;
}

/** `ChatMessage.getSpeaker()` for a user: their character, through its token on the viewed scene when there is one. */
function speakerFor(game: Game, user: WorldDocument): ChatSpeaker {
  const actor = game.actors.get(user.source.character as string);
  if (!actor) return { alias: user.name };
  const scene = game.viewedScene();
  const token = scene?.collection('Token').find((candidate) => candidate.source.actorId === actor.id);
  return {
    scene: token ? scene!.id : null,
    actor: actor.id,
    token: token?.id ?? null,
    alias: token?.name ?? actor.name,
  };
}

function findToken(game: Game, tokenId: string): WorldDocument | undefined {
  const byUuid = game.fromUuid(tokenId);
  if (byUuid?.documentName === 'Token') return byUuid;
  for (const scene of game.scenes.values()) {
    const token = scene.collection('Token').get(tokenId);
    if (token) return token;
  }
  return undefined;
}

function requireCombat(game: Game): WorldDocument {
  const combat = game.activeCombat();
  if (!combat) throw new Error('No active combat');
  return combat;
}

export function createSimulation(game: Game): Simulation {
  const simulation: Simulation = {
    playerRoll(userName, formula, flavor) {
      const user = userNamed(game, userName);
      const roll = evaluateRoll(formula, game.diceRandom);
      return createChatMessage(game, { authorId: user.id, speaker: speakerFor(game, user), flavor, rolls: [roll] });
    },

    chat(userName, content) {
      const user = userNamed(game, userName);
      return createChatMessage(game, { authorId: user.id, speaker: speakerFor(game, user), content });
    },

    moveToken(tokenId, x, y) {
      const token = findToken(game, tokenId);
      if (!token) throw new Error(`Token not found: ${tokenId}`);
      return game.updateDocument(token, { x, y });
    },

    updateActor(actorId, changes) {
      const actor = game.actors.get(actorId) ?? game.fromUuid(actorId);
      if (actor?.documentName !== 'Actor') throw new Error(`Actor not found: ${actorId}`);
      return game.updateDocument(actor, changes);
    },

    activateScene(sceneId) {
      const scene = game.scenes.get(sceneId) ?? game.fromUuid(sceneId);
      if (scene?.documentName !== 'Scene') throw new Error(`Scene not found: ${sceneId}`);
      activateScene(game, scene);
    },

    startCombat() {
      let combat = game.activeCombat();
      if (!combat) {
        const scene = game.viewedScene();
        if (!scene) throw new Error('No scene is viewed');
        combat = game.createDocument('Combat', { scene: scene.id, active: true, round: 0, turn: null });
        for (const token of scene.collection('Token').contents.filter((candidate) => !candidate.source.hidden)) {
          game.createDocument(
            'Combatant',
            { tokenId: token.id, sceneId: scene.id, actorId: token.source.actorId },
            { parent: combat },
          );
        }
      }
      rollInitiative(game, combat.collection('Combatant').contents);
      return beginCombat(game, combat);
    },

    nextTurn() {
      return nextTurn(game, requireCombat(game));
    },

    endCombat() {
      game.deleteDocument(requireCombat(game));
    },

    changeTrack() {
      const playlists = game.playlists.contents.filter((playlist) =>
        [PLAYLIST_MODES.SEQUENTIAL, PLAYLIST_MODES.SHUFFLE].includes(playlist.source.mode as 0 | 1),
      );
      const playing = playlists.find((playlist) => playlist.source.playing === true);
      if (playing) playNext(game, playing);
      else if (playlists[0]) playAll(game, playlists[0]);
    },

    setPaused(paused) {
      game.paused = paused;
      game.hooks.callAll('pauseGame', paused, { broadcast: true, userId: game.moduleUserId });
    },
  };
  return simulation;
}
