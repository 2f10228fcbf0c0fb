import type { WorldAsk } from '../tabletop/world-ask.ts';
import { updatedAt, type DocumentData } from './documents.ts';

// What a writing route declares about its calls: the documents they touch, read from the world just before and just
// after (so each call's change is recorded and can be undone), or why they cannot be undone. Every world route that
// is not a GET says one or the other (test/integration/journal-routes.test.ts walks the tables).

type Fields = Record<string, unknown>;

/** The touched documents by uuid as one moment saw them; undefined: the document did not exist. */
export type DocumentStates = ReadonlyMap<string, DocumentData | undefined>;

/** What a dry run says a call would do: each touched document after it, and what it would make. */
export interface Prediction {
  after: DocumentStates;
  made?: { documentName: string; document: DocumentData }[];
}

/** A writing route whose calls the journal records with what undoes them. */
export interface UndoableWrite<P = Fields> {
  /**
   * The documents a call may change, by uuid: read whole (with what is embedded in them) before the call and again
   * after. Where the parameters name a document another way (by name, by selection) the world is asked, as the GM.
   */
  touches(parameters: P, askWorld: WorldAsk): readonly string[] | Promise<readonly string[]>;
  /** The documents the call made, as the world's answer names them; read after the call. */
  made?(answer: Fields, parameters: P): readonly string[];
  /** What the call would do to the documents it touches, for a dry run; absent where only the world can tell. */
  predict?(parameters: P, before: DocumentStates): Prediction;
}

/** A writing route whose calls cannot be undone, and why; `recorded` ones still go into the journal, for the GM to see. */
export interface NotUndoable {
  notUndoable: string;
  recorded?: true;
}

export type WorldChanges<P = Fields> = UndoableWrite<P> | NotUndoable;

export function isUndoable<P>(changes: WorldChanges<P>): changes is UndoableWrite<P> {
  return 'touches' in changes;
}

/** Every touched document as the update `changesOf` gives would leave it. */
export function updating<P>(changesOf: (parameters: P, uuid: string, before: DocumentData) => DocumentData) {
  return (parameters: P, before: DocumentStates): Prediction => ({
    after: new Map(
      [...before].map(([uuid, document]) => [
        uuid,
        document && updatedAt(uuid, document, changesOf(parameters, uuid, document)),
      ]),
    ),
  });
}

/** Every touched document goes. */
export function deleting(_parameters: unknown, before: DocumentStates): Prediction {
  return { after: new Map([...before.keys()].map((uuid) => [uuid, undefined])) };
}

/** A document of this type and data would be made. */
export function creating<P>(made: (parameters: P) => { documentName: string; document: DocumentData }[]) {
  return (parameters: P, before: DocumentStates): Prediction => ({ after: before, made: made(parameters) });
}
