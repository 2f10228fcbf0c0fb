import { z } from 'zod';
import { record, text, wholeNumber } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD } from '../routing/player-view.ts';
import { creating, deleting, updating } from '../journal/changes.ts';
import { fieldsOf, listOf, textOf } from '../objects.ts';
import type { WorldAsk } from '../tabletop/world-ask.ts';

/** A user by id, or by name as the world lists them. */
async function userOf(p: { id?: string; name?: string }, askWorld: WorldAsk): Promise<string[]> {
  if (p.id !== undefined) return [`User.${p.id}`];
  const users = listOf((await askWorld('get-users')).data);
  const user = users.find((row) => row.name === p.name);
  return user ? [`User.${textOf(user.id)}`] : [];
}

const read = { scope: 'user:read' } as const;
const write = { scope: 'user:write' } as const;
const identity = { id: text().optional().describe('User id'), name: text().optional().describe('User name') };
const identified = (p: { id?: string; name?: string }) => p.id !== undefined || p.name !== undefined;
const userRequired = { error: "Either 'id' or 'name' is required" };
const role = () => wholeNumber({ min: 0, max: 4 });

export const userRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/users',
    summary: 'The users of the world',
    access: read,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({}),
    operation: 'get-users',
  }),
  worldRoute({
    method: 'GET',
    path: '/user',
    summary: 'One user',
    access: read,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object(identity).refine(identified, userRequired),
    operation: 'get-user',
  }),
  worldRoute({
    method: 'POST',
    path: '/user',
    summary: 'Create a user',
    access: write,
    playerView: GM_ONLY_IN_WORLD,
    from: 'body',
    parameters: z.object({
      name: text().describe('User name'),
      role: role().default(1).describe('0 none, 1 player, 2 trusted, 3 assistant GM, 4 GM'),
      password: z.string({ error: 'must be a string' }).optional().describe('Password'),
      character: text().optional().describe('Actor id of their character'),
    }),
    operation: 'create-user',
    changes: {
      touches: () => [],
      made: (answer) => {
        const id = fieldsOf(answer.data)?.id;
        return typeof id === 'string' ? [`User.${id}`] : [];
      },
      predict: creating((p) => [{ documentName: 'User', document: { name: p.name, role: p.role } }]),
    },
  }),
  worldRoute({
    method: 'PUT',
    path: '/user',
    summary: 'Update a user',
    access: write,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({ ...identity, data: record().describe('Changes') }).refine(identified, userRequired),
    operation: 'update-user',
    changes: { touches: userOf, predict: updating((p) => p.data) },
  }),
  worldRoute({
    method: 'DELETE',
    path: '/user',
    summary: 'Delete a user',
    access: write,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object(identity).refine(identified, userRequired),
    operation: 'delete-user',
    changes: { touches: userOf, predict: deleting },
  }),
];
