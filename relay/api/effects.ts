import { z } from 'zod';
import { record, text } from '../routing/parameters.ts';
import { worldRoute, type Route, type WorldAsk } from '../routing/route.ts';
import { OWNED_IN_WORLD, WORLD_FILTERS } from '../routing/player-view.ts';
import { creating } from '../journal/changes.ts';
import { withActors } from '../journal/touched.ts';

/** The module puts an effect on the actor of a token (module-operations.md §2.3), so both are read. */
const onActor = (p: { uuid: string }, askWorld: WorldAsk) => withActors([p.uuid], askWorld);

/** The effects of an actor's source without the one that goes: by id, or the first with the status. */
function withoutEffect(effects: unknown, p: { effectId?: string; statusId?: string }): unknown[] {
  const list = Array.isArray(effects) ? (effects as Record<string, unknown>[]) : [];
  const gone =
    p.effectId !== undefined
      ? list.find((effect) => effect._id === p.effectId)
      : list.find((effect) => Array.isArray(effect.statuses) && effect.statuses.includes(p.statusId));
  return list.filter((effect) => effect !== gone);
}

const target = { uuid: text().describe('Actor or token UUID') };

export const effectsRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/effects',
    summary: 'List the active effects on an actor or token',
    access: { scope: 'effects:read' },
    playerView: WORLD_FILTERS,
    from: 'body+query',
    parameters: z.object(target),
    operation: 'get-effects',
  }),
  worldRoute({
    method: 'GET',
    path: '/effects/list',
    summary: "List the game system's status effects (valid statusId values)",
    access: { scope: 'effects:read' },
    playerView: { passes: "the game system's status effects, the same for every user" },
    parameters: z.object({}),
    operation: 'get-status-effects',
    moduleFailures: [
      {
        error: /^CONFIG\.statusEffects\.map is not a function$/,
        status: 501,
        explanation:
          'On Foundry 14, CONFIG.statusEffects is an object keyed by status id, which the foundry-rest-api module 3.4.1 cannot list: no call gets this list from such a world until the module supports Foundry 14',
      },
    ],
  }),
  worldRoute({
    method: 'POST',
    path: '/effects',
    summary: 'Add a status effect (statusId) or a custom effect (effectData) to an actor or token',
    access: { scope: 'effects:write' },
    playerView: OWNED_IN_WORLD,
    parameters: z
      .object({
        ...target,
        statusId: text().optional().describe('A status effect id from GET /effects/list'),
        effectData: record().optional().describe('ActiveEffect data: name, icon, duration, changes'),
      })
      .refine((p) => (p.statusId === undefined) !== (p.effectData === undefined), {
        error: "Give exactly one of 'statusId' or 'effectData'",
      }),
    operation: 'add-effect',
    changes: {
      touches: onActor,
      predict: creating((p) => [
        { documentName: 'ActiveEffect', document: p.effectData ?? { name: p.statusId, statuses: [p.statusId] } },
      ]),
    },
    moduleFailures: [
      {
        error: /^CONFIG\.statusEffects\.find is not a function$/,
        status: 400,
        explanation:
          'On Foundry 14 the foundry-rest-api module 3.4.1 cannot look a status effect up by statusId (CONFIG.statusEffects is an object there): send effectData with the status id in its statuses instead, e.g. {"name":"Prone","statuses":["prone"]}',
      },
    ],
  }),
  worldRoute({
    method: 'DELETE',
    path: '/effects',
    summary: 'Remove an effect by its id or by its status',
    access: { scope: 'effects:write' },
    playerView: OWNED_IN_WORLD,
    parameters: z
      .object({
        ...target,
        effectId: text().optional().describe('The ActiveEffect id'),
        statusId: text().optional().describe('A status effect id'),
      })
      .refine((p) => (p.effectId === undefined) !== (p.statusId === undefined), {
        error: "Give exactly one of 'effectId' or 'statusId'",
      }),
    operation: 'remove-effect',
    changes: {
      touches: onActor,
      predict: (p, before) => ({
        after: new Map(
          [...before].map(([uuid, document]) => [
            uuid,
            document && Array.isArray(document.effects)
              ? { ...document, effects: withoutEffect(document.effects, p) }
              : document,
          ]),
        ),
      }),
    },
  }),
];
