import { HttpError } from '../errors.ts';
import { fieldsOf } from '../objects.ts';
import type { Tabletop } from '../tabletop/tabletop.ts';
import { askingAsGm, hasError, type WorldAsk } from '../tabletop/world-ask.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import { comparable, parentOf, collectionFieldOf, type DocumentData } from './documents.ts';
import type { DocumentStates } from './changes.ts';

/** The world's words for a uuid that names nothing (module-operations.md, `entity`). */
const NOT_FOUND = /not found/i;

/**
 * One world's documents as the journal reads and writes them: through the module's own operations (`entity` to read,
 * `create`, `update` and `delete` to undo), as the GM, or as one user for a dry run of that user's key.
 */
export class WorldDocuments {
  readonly world: WorldConnection;
  /** Asks the world as the GM; a refusal throws. */
  readonly ask: WorldAsk;
  readonly #tabletop: Tabletop;
  readonly #timeoutMs: number;
  readonly #userId: string | undefined;

  constructor(tabletop: Tabletop, world: WorldConnection, timeoutMs: number, userId?: string) {
    this.world = world;
    this.ask = askingAsGm(tabletop, world, timeoutMs);
    this.#tabletop = tabletop;
    this.#timeoutMs = timeoutMs;
    this.#userId = userId;
  }

  /** The document whole, with the documents embedded in it; undefined when the world has none by that uuid. */
  async read(uuid: string): Promise<DocumentData | undefined> {
    const fields = this.#userId === undefined ? { uuid } : { uuid, userId: this.#userId };
    const { message } = await this.#tabletop.request(this.world, 'entity', fields, this.#timeoutMs);
    if (hasError(message)) {
      const error = String(message.error);
      if (NOT_FOUND.test(error)) return undefined;
      // A user's own read refused is theirs to hear; the relay's own read refused is the world's failure.
      throw new HttpError(this.#userId === undefined ? 502 : 400, `The world refused to read ${uuid}: ${error}`);
    }
    const data = fieldsOf(message.data);
    return data && comparable(data);
  }

  /** Each document, read at once; a uuid embedded in another of the list is read with it, not on its own. */
  async readAll(uuids: readonly string[]): Promise<DocumentStates> {
    const read = await Promise.all(uuids.map(async (uuid) => [uuid, await this.read(uuid)] as const));
    return new Map(read);
  }
}

/** The uuids, each once, but those embedded in another of them (the other's read and changes include them). */
export function outermost(uuids: readonly string[]): string[] {
  const unique = [...new Set(uuids)];
  const listed = new Set(unique);
  return unique.filter((uuid) => !embeddedInAny(uuid, listed));
}

function embeddedInAny(uuid: string, listed: ReadonlySet<string>): boolean {
  let current = uuid;
  while (collectionFieldOf(current) !== undefined) {
    current = parentOf(current)!;
    if (listed.has(current)) return true;
  }
  return false;
}
