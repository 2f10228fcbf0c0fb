// What every operation handler gets, and the reply helpers shared by them (module-operations.md §0, §1).
import { resultTypeOf, type WorldMessage, type WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldOperation } from '../../contracts/operations.ts';
import type { FileStore } from '../files/file-store.ts';
import type { SearchIndex } from '../search-index.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { resolveUser } from '../world/permissions.ts';

export interface OperationContext {
  game: Game;
  searchIndex: SearchIndex;
  /** The world's data folder. */
  files: FileStore;
  /** Foundry's own public folder: core icons, sounds and interface images; read-only. */
  publicFiles: FileStore;
}

/** A handler's reply, or undefined when the module would send nothing. */
export type OperationHandler = (request: WorldRequest, context: OperationContext) => Promise<WorldMessage | undefined>;
/** Handlers by the operation they answer: only the operations a world knows (contracts/operations.ts). */
export type OperationTable = { [Operation in WorldOperation]?: OperationHandler };

export function reply(request: WorldRequest, fields: Record<string, unknown>): WorldMessage {
  return { type: resultTypeOf(request.type), requestId: request.requestId, ...fields };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `resolveRequestUser`: no userId → null (GM-level access); an unknown one ends the request with
 * `User not found: <id>`.
 */
export function requestUser(
  request: WorldRequest,
  game: Game,
): { user: WorldDocument | null } | { refusal: WorldMessage } {
  if (!request.userId) return { user: null };
  const user = resolveUser(game, request.userId);
  if (!user) return { refusal: reply(request, { error: `User not found: ${request.userId}`, data: null }) };
  return { user };
}

/** Runs an operation body and turns a thrown error into `{error, ...failureFields}`. */
export async function guarded(
  request: WorldRequest,
  failureFields: Record<string, unknown>,
  body: () => Promise<WorldMessage | undefined> | WorldMessage | undefined,
): Promise<WorldMessage | undefined> {
  try {
    return await body();
  } catch (error) {
    return reply(request, { ...failureFields, error: errorMessage(error) });
  }
}

/** Extra keys of an error reply: fixed, or read from the request (e.g. echoing its `uuid`). */
export type FailureFields = Record<string, unknown> | ((request: WorldRequest) => Record<string, unknown>);

/** A handler that resolves the user first, then runs `body` with errors reported as `{error, ...failureFields}`. */
export function withUser(
  failureFields: FailureFields,
  body: (
    request: WorldRequest,
    context: OperationContext,
    user: WorldDocument | null,
  ) => Promise<WorldMessage | undefined> | WorldMessage | undefined,
): OperationHandler {
  return async (request, context) => {
    const resolved = requestUser(request, context.game);
    if ('refusal' in resolved) return resolved.refusal;
    const fields = typeof failureFields === 'function' ? failureFields(request) : failureFields;
    return guarded(request, fields, () => body(request, context, resolved.user));
  };
}

export function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
