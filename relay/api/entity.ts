import { z } from 'zod';
import { flag, number, record, text } from '../routing/parameters.ts';
import { worldRoute, type Route, type WorldAsk } from '../routing/route.ts';
import { fieldsOf } from '../objects.ts';
import type { Scope } from '../auth/scopes.ts';
import { OWNED_IN_WORLD, WORLD_FILTERS } from '../routing/player-view.ts';
import { creating, deleting, updating } from '../journal/changes.ts';
import { valueAt } from '../journal/documents.ts';
import { currentCombats, selectedTokens, targetsOf, withActors } from '../journal/touched.ts';

const target = {
  uuid: text().optional().describe('Document UUID'),
  selected: flag().optional().describe('Use the selected tokens instead'),
  actor: flag().optional().describe("With selected: use the tokens' actors"),
};
const uuidOrSelected = (p: { uuid?: string; selected?: boolean }) => p.uuid !== undefined || p.selected === true;
const targetRequired = { error: "Either 'uuid' or 'selected' is required" };
const item = {
  itemUuid: text().optional().describe('Item UUID'),
  itemName: text().optional().describe('Item name'),
  quantity: number().optional().describe('How many'),
};
const itemRequired = { error: "Either 'itemUuid' or 'itemName' is required" };
const hasItem = (p: { itemUuid?: string; itemName?: string }) => p.itemUuid !== undefined || p.itemName !== undefined;
const read = { scope: 'entity:read' } as const;
const write = { scope: 'entity:write' } as const;

/** A world or compendium Macro's UUID (`Macro.<id>`, `Compendium.<pack>.Macro.<id>`), as Foundry's fromUuid reads it. */
const MACRO_UUID = /(^|\.)Macro\.[^.]+$/;

/** A compendium document's UUID without its type (`Compendium.<scope>.<pack>.<id>`), which Foundry still resolves. */
const UNTYPED_COMPENDIUM_UUID = /^Compendium\.[^.]+\.[^.]+\.[^.]+$/;

/**
 * Macros run code whoever clicks them, so changing one needs `macro:write` on top of `entity:write`, on every route
 * that takes a document's UUID, as creating one does; the world is not relied on to check the scopes it is sent. A
 * UUID that does not name its type is read from the world first, and one the world cannot place counts as a macro.
 */
async function changesMacro(p: { uuid?: string }, askWorld: WorldAsk): Promise<Scope | undefined> {
  if (p.uuid === undefined) return undefined;
  if (MACRO_UUID.test(p.uuid)) return 'macro:write';
  if (!UNTYPED_COMPENDIUM_UUID.test(p.uuid)) return undefined;
  const answer = await askWorld('entity', { uuid: p.uuid }).catch(() => undefined);
  const resolved = fieldsOf(answer?.data)?.uuid;
  return typeof resolved === 'string' && !MACRO_UUID.test(resolved) ? undefined : 'macro:write';
}

/** increase / decrease: the attribute of each target, moved by the amount. */
function attributeRoute(operation: 'increase' | 'decrease', summary: string): Route {
  const sign = operation === 'increase' ? 1 : -1;
  return worldRoute({
    method: 'POST',
    path: `/${operation}`,
    summary,
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z
      .object({
        ...target,
        attribute: text().describe('Attribute path, e.g. system.attributes.hp.value'),
        amount: number().describe('How much'),
      })
      .refine(uuidOrSelected, targetRequired),
    operation,
    alsoRequires: changesMacro,
    changes: {
      // With `selected`, the module changes the selected tokens' actors.
      touches: (p, askWorld) => (p.uuid !== undefined ? [p.uuid] : selectedTokens(askWorld, true)),
      predict: updating((p, _uuid, before) => {
        const value = valueAt(before, p.attribute).value;
        return typeof value === 'number' ? { [p.attribute]: value + sign * p.amount } : {};
      }),
    },
  });
}

export const entityRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/get',
    summary: 'A document, or the selected tokens',
    access: read,
    playerView: WORLD_FILTERS,
    from: 'body+query',
    parameters: z.object(target).refine(uuidOrSelected, targetRequired),
    operation: 'entity',
  }),
  worldRoute({
    method: 'POST',
    path: '/create',
    summary: 'Create a document',
    access: write,
    playerView: { passes: 'the world creates only what the user may create' },
    parameters: z.object({
      entityType: text().describe('Document type, e.g. Actor, Item, JournalEntry, Macro'),
      data: record().describe('The document data'),
      folder: text().optional().describe('Folder id'),
      keepId: flag().optional().describe('Keep the _id given in data'),
      override: flag().optional().describe('Replace a document with the same _id'),
    }),
    operation: 'create',
    forwardsScopes: true,
    alsoRequires: (p) => (p.entityType === 'Macro' ? 'macro:write' : undefined),
    changes: {
      // `override` with a kept id replaces the document of that id, which is read first.
      touches: (p) =>
        p.keepId && p.override && typeof p.data._id === 'string' ? [`${p.entityType}.${p.data._id}`] : [],
      made: (answer) => (typeof answer.uuid === 'string' ? [answer.uuid] : []),
      predict: creating((p) => [{ documentName: p.entityType, document: { ...p.data, folder: p.folder ?? null } }]),
    },
  }),
  worldRoute({
    method: 'PUT',
    path: '/update',
    summary: 'Update a document, or the selected tokens',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z.object({ ...target, data: record().describe('Changes') }).refine(uuidOrSelected, targetRequired),
    operation: 'update',
    forwardsScopes: true,
    alsoRequires: changesMacro,
    changes: { touches: targetsOf, predict: updating((p) => p.data) },
  }),
  worldRoute({
    method: 'DELETE',
    path: '/delete',
    summary: 'Delete a document, or the selected tokens',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z.object({ uuid: target.uuid, selected: target.selected }).refine(uuidOrSelected, targetRequired),
    operation: 'delete',
    forwardsScopes: true,
    alsoRequires: changesMacro,
    changes: { touches: targetsOf, predict: deleting },
  }),
  worldRoute({
    method: 'POST',
    path: '/give',
    summary: 'Move an item from one actor to another',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z
      .object({
        fromUuid: text().optional().describe('Giving actor'),
        toUuid: text().optional().describe('Receiving actor'),
        selected: target.selected,
        ...item,
      })
      .refine(hasItem, itemRequired),
    operation: 'give',
    changes: {
      // The receiver is the first selected token's actor with `selected`; the giver loses what it gives.
      touches: async (p, askWorld) => [
        ...(p.fromUuid !== undefined ? [p.fromUuid] : []),
        ...(p.selected ? (await selectedTokens(askWorld, true)).slice(0, 1) : p.toUuid !== undefined ? [p.toUuid] : []),
      ],
    },
  }),
  worldRoute({
    method: 'POST',
    path: '/remove',
    summary: 'Remove an item from an actor',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z
      .object({ actorUuid: text().optional().describe('Actor UUID'), selected: target.selected, ...item })
      .refine(hasItem, itemRequired),
    operation: 'remove',
    changes: {
      touches: async (p, askWorld) =>
        p.selected
          ? (await selectedTokens(askWorld, true)).slice(0, 1)
          : p.actorUuid !== undefined
            ? [p.actorUuid]
            : [],
    },
  }),
  attributeRoute('increase', 'Add to a numeric attribute'),
  attributeRoute('decrease', 'Subtract from a numeric attribute'),
  worldRoute({
    method: 'POST',
    path: '/kill',
    destructive: true,
    summary: "Set a creature's hit points to 0 and mark it dead",
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z.object({ uuid: target.uuid, selected: target.selected }).refine(uuidOrSelected, targetRequired),
    operation: 'kill',
    alsoRequires: changesMacro,
    changes: {
      // Hit points and the dead status live on the actor; the current combat's combatants are marked defeated.
      touches: async (p, askWorld) => [
        ...(await withActors(await targetsOf(p, askWorld), askWorld)),
        ...(await currentCombats(askWorld)),
      ],
    },
  }),
];
