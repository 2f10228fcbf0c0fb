import { z } from 'zod';
import { flag, text, textList, wholeNumber } from '../routing/parameters.ts';
import { streamRoute, worldRoute, type Route } from '../routing/route.ts';
import { lastRollSeen, recentRollsSeen } from '../world-data/player-sorts.ts';
import type { NotUndoable } from '../journal/changes.ts';

const MAX_RECENT_ROLLS = 20;

/** A roll is settled once made: rolling again is another roll, not an undo. */
export const ROLLED: NotUndoable = {
  notUndoable:
    'a roll is settled once made, and one posted to the chat has been seen; delete its message (DELETE /chat/{messageId}) if it must go',
};

export const rollRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/rolls',
    summary:
      'Recent rolls, most recent first (at most 20); a roll posted to chat is listed once, under its chat message id',
    access: { scope: 'roll:read' },
    playerView: recentRollsSeen,
    parameters: z.object({
      limit: wholeNumber({ min: 1, max: MAX_RECENT_ROLLS })
        .default(MAX_RECENT_ROLLS)
        .describe('How many rolls, 1 to 20'),
    }),
    operation: 'rolls',
    // All 20, so that the limit still holds after a roll's second entry is dropped.
    message: () => ({ limit: MAX_RECENT_ROLLS }),
    reviseReply: (message, { parameters, clientId, services }) =>
      services.rollIds.reviseRolls(clientId, message, parameters.limit),
  }),
  worldRoute({
    method: 'GET',
    path: '/lastroll',
    summary: 'The most recent roll (a roll posted to chat has its chat message id, as in the roll event)',
    access: { scope: 'roll:read' },
    playerView: lastRollSeen,
    parameters: z.object({}),
    operation: 'last-roll',
    reviseReply: (message, { clientId, services }) => services.rollIds.reviseLastRoll(clientId, message),
  }),
  worldRoute({
    method: 'POST',
    path: '/roll',
    summary:
      'Evaluate a dice formula. Only a roll posted to chat (createChatMessage: true) reaches /rolls/subscribe; its id is then the chat message id, the same in the roll event and /lastroll',
    access: { scope: 'roll:execute' },
    playerView: { passes: "the answer is the caller's own roll" },
    from: 'body',
    formulaFields: ['formula'],
    parameters: z.object({
      formula: text()
        .max(1000, { error: 'must be at most 1000 characters' })
        .describe('Dice formula, e.g. 1d20+5 or 4d6kh3'),
      flavor: z.string({ error: 'must be a string' }).optional().describe('Flavor text'),
      createChatMessage: flag()
        .optional()
        .describe(
          'Post the roll to the chat log. Without it the roll is only answered here and listed in /rolls: no roll event reaches /rolls/subscribe',
        ),
      speaker: text().optional().describe('Actor or token UUID speaking'),
      whisper: textList().optional().describe('User ids to whisper the roll to'),
    }),
    operation: 'roll',
    changes: ROLLED,
    reviseReply: (message, { clientId, sentAt, services }) =>
      services.rollIds.reviseRollResult(clientId, message, sentAt),
  }),
  streamRoute({
    method: 'GET',
    path: '/rolls/subscribe',
    summary:
      'Stream roll events (Server-Sent Events): rolls posted to chat in the world, and POST /roll with createChatMessage: true',
    access: { scope: 'events:subscribe' },
    playerView: { passes: 'the stream sends a key bound to a user only the rolls that user made' },
    parameters: z.object({}),
    stream: 'roll',
    filter: () => ({}),
  }),
];
