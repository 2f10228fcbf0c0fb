import { z } from 'zod';
import { flag, record, text, textList } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD } from '../routing/player-view.ts';

export const utilityRoutes: Route[] = [
  worldRoute({
    method: 'POST',
    path: '/select',
    idempotent: true,
    summary: 'Select tokens on the active scene',
    access: { scope: 'entity:read' },
    playerView: GM_ONLY_IN_WORLD,
    from: 'body',
    parameters: z.object({
      uuids: textList().optional().describe('Token UUIDs'),
      name: text().optional().describe('Token name (case-insensitive)'),
      // The module matches every token when `data` is present, even empty, so an empty one is never sent.
      data: record()
        .optional()
        .transform((data) => (data && Object.keys(data).length > 0 ? data : undefined))
        .describe('Property paths and values to match'),
      overwrite: flag().optional().describe('Replace the current selection'),
      all: flag().optional().describe('Select every token on the scene'),
    }),
    operation: 'select',
    changes: {
      notUndoable:
        "a selection lives on the GM's canvas in their browser, not in the world's documents; select again to change it",
    },
    moduleFailures: [
      {
        error: /^getProperty is not defined$/,
        status: 400,
        explanation:
          'On Foundry 14 the foundry-rest-api module 3.4.1 cannot match tokens by data (it calls the global getProperty, which Foundry 14 removed): select them by uuids or name instead',
      },
    ],
  }),
  worldRoute({
    method: 'GET',
    path: '/selected',
    summary: 'The selected tokens and their actors',
    access: { scope: 'entity:read' },
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({}),
    operation: 'selected',
  }),
  worldRoute({
    method: 'GET',
    path: '/players',
    summary: 'The users of the world',
    access: { scope: 'entity:read' },
    playerView: { passes: 'the world lists the users to a GM only, and none to anyone else' },
    parameters: z.object({}),
    operation: 'players',
  }),
  worldRoute({
    method: 'GET',
    path: '/world-info',
    summary: 'World, system, versions, modules, users and active scene',
    access: { scope: 'world:info' },
    playerView: {
      passes:
        "what every user's Foundry loads: the world, its system and modules, the users and the active scene's name",
    },
    parameters: z.object({}),
    operation: 'world-info',
  }),
  worldRoute({
    method: 'POST',
    path: '/execute-js',
    destructive: true,
    summary: 'Run JavaScript in the tabletop client (the world must allow it)',
    access: { scope: 'execute-js' },
    playerView: {
      passes: 'the world runs code only for a user of the role its settings allow, a GM unless the GM chose otherwise',
    },
    from: 'body',
    parameters: z.object({ script: text().describe('An async function body; return a JSON value') }),
    operation: 'execute-js',
    timeoutMs: 20_000,
    changes: {
      notUndoable:
        'a script may change anything, so the relay cannot know what to read before it; it is recorded as it was sent',
      recorded: true,
    },
  }),
];
