import { z } from 'zod';
import { flag, text, wholeNumber } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';
import { WORLD_FILTERS } from '../routing/player-view.ts';

export const searchRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/search',
    summary: 'Search world entities and compendiums, best matches first',
    access: { scope: 'search' },
    playerView: WORLD_FILTERS,
    parameters: z.object({
      query: text().optional().describe('Search text; omit to browse everything matching the filter'),
      filter: text()
        .optional()
        .describe(
          'Actor, or documentType:Item,subType:weapon (keys: documentType, subType, folder, package, resultType)',
        ),
      excludeCompendiums: flag().default(false).describe('Leave compendium entries out'),
      limit: wholeNumber({ min: 1, max: 500 }).default(200).describe('How many results, 1 to 500'),
      minified: flag().default(false).describe('Only uuid, id, name, img and documentType per result'),
      ownedByUserId: text().optional().describe('Only documents this user (id or name) owns'),
    }),
    operation: 'search',
  }),
];
