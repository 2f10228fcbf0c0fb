// rolls, last-roll, roll (module-operations.md §3).
import { evaluateRoll, moduleCriticalFlags, type EvaluatedRoll } from '../dice.ts';
import { recordRoll } from '../events.ts';
import { createChatMessage, type ChatSpeaker } from '../world/chat.ts';
import type { Game } from '../world/game.ts';
import { randomBase36 } from '../world/random.ts';
import { errorMessage, reply, withUser, type OperationTable } from './context.ts';

/** The roll action's speaker: a token speaks for itself; an actor through its first token on the active scene. */
function speakerOf(game: Game, uuid: unknown): ChatSpeaker {
  if (typeof uuid !== 'string' || !uuid) return {};
  const document = game.fromUuid(uuid);
  if (document?.documentName === 'Token') {
    const actor = game.tokenActor(document);
    return { token: document.id, actor: actor?.id, scene: document.parent?.id, alias: document.name || actor?.name };
  }
  if (document?.documentName === 'Actor') {
    const scene = game.activeScene();
    if (!scene) return {};
    const token = scene.collection('Token').find((candidate) => game.tokenActor(candidate)?.id === document.id);
    if (token) return { token: token.id, actor: document.id, scene: scene.id, alias: token.name || document.name };
    return { actor: document.id, alias: document.name };
  }
  return {};
}

/**
 * `roll.toMessage(data)`: core reads the roll mode from its second argument, which the module leaves empty, so the
 * GM's default public mode applies and a requested whisper list is cleared.
 */
function postRoll(game: Game, roll: EvaluatedRoll, speaker: ChatSpeaker, flavor: string): void {
  createChatMessage(game, { authorId: game.moduleUserId, speaker, flavor, whisper: [], rolls: [roll] });
}

export const rollOperations: OperationTable = {
  rolls: withUser({}, (request, { game }) => {
    const limit = Number(request.limit) || 20;
    return reply(request, { data: game.recentRolls.slice(0, limit) });
  }),

  'last-roll': withUser({}, (request, { game }) => reply(request, { data: game.recentRolls[0] ?? null })),

  roll: withUser({ success: false }, (request, { game }) => {
    const formula = request.formula as string;
    const flavor = (request.flavor as string | undefined) || '';
    const speaker = speakerOf(game, request.speaker);
    let roll: EvaluatedRoll;
    try {
      roll = evaluateRoll(formula, game.diceRandom);
      if (request.createChatMessage) postRoll(game, roll, speaker, flavor);
    } catch (error) {
      return reply(request, { success: false, error: `Failed to roll formula: ${errorMessage(error)}` });
    }
    const chatMessageCreated = Boolean(request.createChatMessage);
    const id = `manual_${game.now()}_${randomBase36(game.random)}`;
    const { isCritical, isFumble } = moduleCriticalFlags(roll);
    const timestamp = game.now();
    const result = { formula, total: roll.total, isCritical, isFumble, dice: roll.dice, timestamp };
    recordRoll(
      game,
      {
        id,
        messageId: chatMessageCreated ? id : null,
        user: null,
        speaker,
        flavor,
        rollTotal: roll.total,
        formula,
        isCritical,
        isFumble,
        dice: roll.dice,
        timestamp,
      },
      false,
    );
    return reply(request, { success: true, data: { id, chatMessageCreated, roll: result } });
  }),
};
