import { z } from 'zod';
import { record, text } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';

export const macroRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/macros',
    summary: 'The macros of the world',
    access: { scope: 'macro:list' },
    playerView: { passes: 'the world lists only the macros the user may see' },
    parameters: z.object({}),
    operation: 'macros',
  }),
  worldRoute({
    method: 'POST',
    path: '/macro/{uuid}/execute',
    summary: 'Run a macro (the world must allow it)',
    access: { scope: 'macro:execute' },
    playerView: { passes: 'the world runs only a macro the user owns' },
    parameters: z.object({
      uuid: text().describe('Macro UUID'),
      args: record().optional().describe('Arguments handed to the macro'),
    }),
    operation: 'macro-execute',
    changes: {
      notUndoable: 'a macro runs a script that may change anything, so the relay cannot know what to read before it',
      recorded: true,
    },
  }),
];
