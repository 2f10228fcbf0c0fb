import { z } from 'zod';
import { flag, text, textList, wholeNumber } from './parameters.ts';
import { streamRoute, worldRoute, type Route } from './route.ts';

const MAX_RECENT_ROLLS = 20;

export const rollRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/rolls',
    summary: 'Recent rolls, most recent first (at most 20)',
    access: { scope: 'roll:read' },
    parameters: z.object({
      limit: wholeNumber({ min: 1, max: MAX_RECENT_ROLLS })
        .default(MAX_RECENT_ROLLS)
        .describe('How many rolls, 1 to 20'),
    }),
    operation: 'rolls',
  }),
  worldRoute({
    method: 'GET',
    path: '/lastroll',
    summary: 'The most recent roll',
    access: { scope: 'roll:read' },
    parameters: z.object({}),
    operation: 'last-roll',
  }),
  worldRoute({
    method: 'POST',
    path: '/roll',
    summary: 'Evaluate a dice formula',
    access: { scope: 'roll:execute' },
    from: 'body',
    parameters: z.object({
      formula: text().max(1000, { error: 'must be at most 1000 characters' }).describe('Dice formula, e.g. 1d20+5 or 4d6kh3'),
      flavor: z.string({ error: 'must be a string' }).optional().describe('Flavor text'),
      createChatMessage: flag().optional().describe('Post the roll to the chat log'),
      speaker: text().optional().describe('Actor or token UUID speaking'),
      whisper: textList().optional().describe('User ids to whisper the roll to'),
    }),
    operation: 'roll',
  }),
  streamRoute({
    method: 'GET',
    path: '/rolls/subscribe',
    summary: 'Stream roll events (Server-Sent Events)',
    access: { scope: 'events:subscribe' },
    parameters: z.object({}),
    stream: 'roll',
    filter: () => ({}),
  }),
];
