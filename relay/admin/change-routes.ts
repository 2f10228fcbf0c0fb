import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { undoChange } from '../journal/undo.ts';
import { worldDocumentsOf } from '../routing/call.ts';
import { flag, text, wholeNumber } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';

const admin = 'admin' as const;
const changeId = text().describe('The change id');
const confirmationCode = text().describe('The code the held change shows, e.g. K7P-4QX');

function connectedWorld(clientId: string, services: RelayServices) {
  const world = services.tabletop.world(clientId);
  if (!world)
    throw new HttpError(
      409,
      'The world of this change is not connected: open it in Foundry (or keep it online), then undo',
    );
  return world;
}

/**
 * The GM's side of the change journal (relay/journal/): the changes tools made to the worlds, each with what it did to
 * every document, undone on request; and the changes of keys that ask before changes, waiting for a decision. The
 * journal holds world data as the GM sees it, so only the GM reads it.
 */
export const changeRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/changes',
    summary: 'The changes tools made to the worlds, newest first, each with what it did to every document',
    access: admin,
    parameters: z.object({
      clientId: text().optional().describe('Only the changes of this world'),
      before: text().optional().describe('Only changes older than this change id: the next page'),
      limit: wholeNumber({ min: 1, max: 1000 }).default(100).describe('How many changes, 1 to 1000'),
    }),
    handle: ({ parameters, services }) => {
      const changes = services.journal
        .list()
        .filter((change) => parameters.clientId === undefined || change.clientId === parameters.clientId)
        .filter((change) => parameters.before === undefined || change.id < parameters.before);
      return { body: { changes: changes.slice(0, parameters.limit), more: changes.length > parameters.limit } };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/admin/changes/{id}',
    summary: 'One change of the journal',
    access: admin,
    parameters: z.object({ id: changeId }),
    handle: ({ parameters, services }) => ({
      body: services.journal.get(parameters.id) ?? notFound('change'),
    }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/changes/{id}/undo',
    summary:
      'Undo a change: each document it touched goes back to how it was; refused with what differs (409) when they changed again since, unless forced',
    access: admin,
    parameters: z.object({
      id: changeId,
      force: flag().default(false).describe('Undo even where the documents changed again since'),
    }),
    handle: async ({ parameters, services }) => {
      const change = services.journal.get(parameters.id) ?? notFound('change');
      const documents = worldDocumentsOf(connectedWorld(change.clientId, services), services);
      const by = { name: 'The GM' };
      const undo = await undoChange(services.journal, parameters.id, { force: parameters.force, by }, documents);
      return { body: undo };
    },
  }),
  localRoute({
    method: 'GET',
    path: '/admin/confirmations',
    summary: 'Changes of keys that ask before changes, waiting for the GM',
    access: admin,
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { confirmations: services.confirmations.pending() } }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/confirmations/{code}/approve',
    summary: 'Approve a held change: it goes to the world and its caller gets the answer',
    access: admin,
    parameters: z.object({ code: confirmationCode }),
    handle: ({ parameters, services }) => ({ body: services.confirmations.approve(parameters.code) }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/confirmations/{code}/deny',
    summary: 'Deny a held change: nothing is changed and its caller gets a 403',
    access: admin,
    parameters: z.object({ code: confirmationCode }),
    handle: ({ parameters, services }) => ({ body: services.confirmations.deny(parameters.code) }),
  }),
];

function notFound(what: string): never {
  throw new HttpError(404, `No ${what} with this id`);
}
