// A dnd5e route: resolves the request's user first, then reports any thrown error as `{error}`, as the module does.
import type { WorldMessage, WorldRequest } from '../../../contracts/world-protocol.ts';
import type { WorldDocument } from '../../world/document.ts';
import type { Game } from '../../world/game.ts';
import { withUser, type OperationContext, type OperationHandler } from '../context.ts';

export function dnd5eRoute(
  body: (request: WorldRequest, game: Game, user: WorldDocument | null, context: OperationContext) => WorldMessage,
): OperationHandler {
  return withUser({}, (request, context, user) => body(request, context.game, user, context));
}
