import { evaluateRoll } from '../../sandbox/dice.ts';
import { createChatMessage } from '../../sandbox/world/chat.ts';
import type { WorldHarness } from './world.ts';

/** The sandbox world's user ids by user name (Gamemaster, Alice, Bob…). */
export function userIdsByName(harness: WorldHarness): Record<string, string> {
  return Object.fromEntries(harness.world.game.users.contents.map((user) => [user.name, user.id]));
}

/**
 * A roll posted to chat as Foundry does it for each roll mode: whispered to `whisper` (user names), or public.
 * Returns the chat message's id.
 */
export function postRoll(harness: WorldHarness, author: string, formula: string, whisper: string[] = []): string {
  const ids = userIdsByName(harness);
  return createChatMessage(harness.world.game, {
    authorId: ids[author]!,
    speaker: { alias: author },
    whisper: whisper.map((name) => ids[name]!),
    rolls: [evaluateRoll(formula, harness.world.game.diceRandom)],
  }).id;
}
