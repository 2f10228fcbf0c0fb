// Looking up what a request points at: controlled tokens, tokens by uuid or name, the actor behind a document.
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';

/** `canvas.tokens.controlled`: the controlled tokens of the viewed scene. */
export function controlledTokens(game: Game): WorldDocument[] {
  const scene = game.viewedScene();
  return scene?.collection('Token').filter((token) => game.canvas.controlledTokenIds.has(token.id)) ?? [];
}

/** A Token uuid resolves to itself; an Actor uuid to its first token on `scene`. */
export function tokenByUuid(game: Game, uuid: string, scene: WorldDocument): WorldDocument | null {
  const document = game.fromUuid(uuid);
  if (document?.documentName === 'Token') return document;
  if (document?.documentName === 'Actor')
    return scene.collection('Token').find((token) => game.tokenActor(token)?.id === document.id) ?? null;
  return null;
}

export function tokenByName(scene: WorldDocument, name: string): WorldDocument | null {
  const lowered = name.toLowerCase();
  return scene.collection('Token').find((token) => token.name.toLowerCase() === lowered) ?? null;
}
