import type { WorldOperation } from '../../contracts/operations.ts';
import { HttpError } from '../errors.ts';
import type { Tabletop } from './tabletop.ts';
import type { WorldConnection } from './world-connection.ts';

/** Asks the caller's world an operation with these fields, as the GM unless they name a user; a refusal throws. */
export type WorldAsk = (
  operation: WorldOperation,
  fields?: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/** Whether a world's answer is a refusal: it carries an `error`. */
export function hasError(message: Record<string, unknown>): boolean {
  return message.error !== undefined && message.error !== null && message.error !== false;
}

/**
 * Asks `world` for the relay's own use (what a player may see, which scope a change needs, what a change touches), as
 * the GM unless the fields name a user; a refusal is an error, never an answer.
 */
export function askingAsGm(tabletop: Tabletop, world: WorldConnection, timeoutMs: number): WorldAsk {
  return async (operation, fields = {}) => {
    const { message } = await tabletop.request(world, operation, fields, timeoutMs);
    if (hasError(message))
      throw new HttpError(502, `The world refused what the relay asked it (${operation}): ${String(message.error)}`);
    return message;
  };
}
