import { z } from 'zod';
import { flag, text, textList } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD } from '../routing/player-view.ts';
import { encountersSeen } from '../world-data/player-sorts.ts';
import { deleting, type UndoableWrite } from '../journal/changes.ts';
import { combatOf, currentCombats } from '../journal/touched.ts';

// The reference relay sends `encounter` and `tokens`, which the module never reads; callers may use either name and
// the world receives the module's own `encounterId` and `tokenUuids`.
const encounter = {
  encounterId: text().optional().describe('Combat id; omit for the active combat'),
  encounter: text().optional().describe('Same as encounterId (reference relay name)'),
};
const toEncounterId = <T extends { encounterId?: string; encounter?: string }>({ encounter: alias, ...rest }: T) => ({
  ...rest,
  encounterId: rest.encounterId ?? alias,
});
const manage = { scope: 'encounter:manage' } as const;

/** The combat a call names, or the current one: its turn, round and combatants are what change. */
const inCombat: UndoableWrite<{ encounterId?: string; encounter?: string }> = {
  touches: (p, askWorld) => combatOf(p.encounterId ?? p.encounter, askWorld),
};

function navigationRoute(
  operation: 'next-turn' | 'next-round' | 'last-turn' | 'last-round' | 'end-encounter',
  summary: string,
): Route {
  return worldRoute({
    method: 'POST',
    path: `/${operation}`,
    summary,
    access: manage,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object(encounter),
    operation,
    message: toEncounterId,
    changes: operation === 'end-encounter' ? { ...inCombat, predict: deleting } : inCombat,
  });
}

function combatantsRoute(operation: 'add-to-encounter' | 'remove-from-encounter', summary: string): Route {
  return worldRoute({
    method: 'POST',
    path: `/${operation}`,
    summary,
    access: manage,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({
      ...encounter,
      uuids: textList().optional().describe('Token or actor UUIDs'),
      selected: flag().optional().describe('Use the selected tokens'),
      ...(operation === 'add-to-encounter'
        ? { rollInitiative: flag().optional().describe('Roll initiative for them') }
        : {}),
    }),
    operation,
    message: toEncounterId,
    changes: inCombat,
  });
}

export const encounterRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/encounters',
    summary: 'The combats of the world',
    access: { scope: 'encounter:read' },
    playerView: encountersSeen,
    parameters: z.object({}),
    operation: 'encounters',
  }),
  worldRoute({
    method: 'POST',
    path: '/start-encounter',
    summary: 'Create and start a combat',
    access: manage,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({
      tokenUuids: textList().optional().describe('Token UUIDs to add'),
      tokens: textList().optional().describe('Same as tokenUuids (reference relay name)'),
      startWithSelected: flag().optional().describe('Add the selected tokens'),
      startWithPlayers: flag().optional().describe("Add the players' tokens"),
      rollNPC: flag().optional().describe('Roll initiative for NPCs'),
      rollAll: flag().optional().describe('Roll initiative for everyone'),
      name: text().optional().describe('Combat name'),
    }),
    operation: 'start-encounter',
    message: ({ tokens, ...rest }) => ({ ...rest, tokenUuids: rest.tokenUuids ?? tokens }),
    changes: {
      // The new combat becomes the current one, so the one that was current until then is read too.
      touches: (_p, askWorld) => currentCombats(askWorld),
      made: (answer) => (typeof answer.encounterId === 'string' ? [`Combat.${answer.encounterId}`] : []),
    },
  }),
  navigationRoute('next-turn', 'Advance to the next turn'),
  navigationRoute('next-round', 'Advance to the next round'),
  navigationRoute('last-turn', 'Go back one turn'),
  navigationRoute('last-round', 'Go back one round'),
  navigationRoute('end-encounter', 'End a combat'),
  combatantsRoute('add-to-encounter', 'Add combatants to a combat'),
  combatantsRoute('remove-from-encounter', 'Remove combatants from a combat'),
  // The combat stream (/encounters/subscribe) lives with the other streams in events.ts.
];
