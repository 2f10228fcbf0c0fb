// The dnd5e routes (module-protocol.md §4.11 dnd5e; reference-relay-http-api.md §1.20). The module registers them
// only in D&D 5e worlds and leaves every other world silent, so the relay would wait for its timeout. The sandbox
// answers at once instead, naming the world's system: a deliberate improvement over the module.
import { reply, type OperationHandler, type OperationTable } from '../context.ts';
import { checkRoutes } from './checks.ts';
import { detailRoutes } from './details.ts';
import { inventoryRoutes } from './inventory.ts';
import { restRoutes } from './rests.ts';

const ROUTES: OperationTable = { ...detailRoutes, ...inventoryRoutes, ...restRoutes, ...checkRoutes };

function onlyInDnd5e(handler: OperationHandler): OperationHandler {
  return async (request, context) => {
    const { system } = context.game;
    if (system.id !== 'dnd5e') {
      return reply(request, {
        error: `The dnd5e routes are available only in D&D 5e worlds; this world runs ${system.title}`,
      });
    }
    return handler(request, context);
  };
}

export const dnd5eOperations: OperationTable = Object.fromEntries(
  Object.entries(ROUTES).map(([type, handler]) => [type, onlyInDnd5e(handler)]),
);
