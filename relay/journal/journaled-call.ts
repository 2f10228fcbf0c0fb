import type { ChangeView, DocumentChangeView, DocumentStateView } from '../../contracts/admin-api.ts';
import { HttpError } from '../errors.ts';
import type { WorldReply } from '../tabletop/pending-requests.ts';
import { hasError } from '../tabletop/world-ask.ts';
import type { ChangeJournal } from './change-journal.ts';
import { isUndoable, type DocumentStates, type UndoableWrite, type WorldChanges } from './changes.ts';
import { documentChanges, documentNameOf, type DocumentData } from './documents.ts';
import { outermost, type WorldDocuments } from './world-documents.ts';

type Fields = Record<string, unknown>;

/** Texts longer than this are kept shortened in the journal (a script, a file's data URL). */
const LONGEST_TEXT = 16_384;
/** Lists longer than this (a file's bytes) are kept as their length. */
const LONGEST_LIST = 1_000;
/** A world's answer larger than this (as JSON) is kept as its size only. */
const LARGEST_ANSWER = 65_536;
/** Fields whose values the journal never keeps, at any depth (`password`, `data.password`, `-=password`). */
const SECRET_FIELD = /password$/i;
const NOT_KEPT = '(not kept)';

/** The call a change records: who asked, in which world, as which user, which route, with what. */
export interface RecordedCall {
  clientId: string;
  worldTitle?: string;
  by: ChangeView['by'];
  userId?: string;
  method: string;
  path: string;
  summary: string;
  parameters: Fields;
}

/**
 * Sends a writing call to the world with the journal around it: the documents it touches are read first, the change is
 * stored (or the call refused, when the disk cannot take it), the call is sent, and once the world has answered the
 * documents are read again and the change recorded, off the caller's path. A refusal of the world leaves no change.
 */
export async function journaledCall(
  journal: ChangeJournal,
  changes: WorldChanges,
  call: RecordedCall,
  documents: WorldDocuments,
  send: () => Promise<WorldReply>,
): Promise<WorldReply> {
  if (!isUndoable(changes)) return recordedOnly(journal, changes.notUndoable, call, send);
  return (await recordAround(journal, changes, call, documents, send)).reply;
}

/** `journaledCall` for an undoable write, with the id of the change it began (gone again if nothing changed). */
export async function recordAround(
  journal: ChangeJournal,
  changes: UndoableWrite,
  call: RecordedCall,
  documents: WorldDocuments,
  send: () => Promise<WorldReply>,
): Promise<{ reply: WorldReply; id: string }> {
  const touched = outermost(await changes.touches(call.parameters, documents.ask));
  const before = await documents.readAll(touched);
  const change = await journal.begin({ ...recordOf(call), state: 'pending', changes: [], before: statesOf(before) });
  const reply = await sendFor(journal, change.id, send);
  if (hasError(reply.message)) journal.drop(change.id);
  else journal.settling(change.id, settle(journal, change.id, changes, call, documents, before, reply));
  return { reply, id: change.id };
}

/** A call that cannot be undone, recorded for the GM to see: what was asked and what the world answered. */
async function recordedOnly(
  journal: ChangeJournal,
  notUndoable: string,
  call: RecordedCall,
  send: () => Promise<WorldReply>,
): Promise<WorldReply> {
  const change = await journal.begin({ ...recordOf(call), state: 'pending', changes: [], notUndoable });
  const reply = await sendFor(journal, change.id, send);
  if (hasError(reply.message)) journal.drop(change.id);
  else journal.settle(change.id, { state: 'done', answer: shortenedAnswer(reply.message) });
  return reply;
}

/**
 * The world's answer. A call the relay refused before it reached the world (a 4xx) changed nothing and leaves no
 * change; when no answer came (the world went silent, or away), what the call did is not known.
 */
async function sendFor(journal: ChangeJournal, id: string, send: () => Promise<WorldReply>): Promise<WorldReply> {
  try {
    return await send();
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    if (status >= 400 && status < 500 && status !== 408) journal.drop(id);
    else journal.settle(id, { state: 'unknown', answer: { error: (error as Error).message } });
    throw error;
  }
}

async function settle(
  journal: ChangeJournal,
  id: string,
  changes: UndoableWrite,
  call: RecordedCall,
  documents: WorldDocuments,
  before: DocumentStates,
  reply: WorldReply,
): Promise<void> {
  const answer = shortenedAnswer(reply.message);
  try {
    const made = changes.made?.(reply.message, call.parameters) ?? [];
    const uuids = outermost([...before.keys(), ...made]);
    const after = await documents.readAll(uuids);
    const found = uuids.flatMap((uuid) => documentChanges(uuid, before.get(uuid), after.get(uuid)));
    if (found.length === 0) journal.drop(id);
    else journal.settle(id, { state: 'done', answer, changes: found, before: undefined });
  } catch {
    // The world went away before it could be read again: the documents as they were stay, for a forced undo.
    journal.settle(id, { state: 'unknown', answer });
  }
}

function recordOf(call: RecordedCall): Omit<ChangeView, 'id' | 'state' | 'changes'> {
  const { parameters, ...rest } = call;
  return { at: new Date().toISOString(), ...rest, asked: shortened(parameters) as Fields };
}

export function statesOf(documents: DocumentStates): DocumentStateView[] {
  return [...documents].map(([uuid, document]) => ({
    uuid,
    documentName: documentNameOf(uuid),
    ...(typeof document?.name === 'string' ? { name: document.name } : {}),
    ...(document ? { document } : {}),
  }));
}

/** The answer without the envelope every answer has, shortened as what was asked is; its size alone when it is large. */
function shortenedAnswer(message: Fields): unknown {
  const { type: _type, requestId: _requestId, ...answer } = message;
  const size = JSON.stringify(answer).length;
  return size > LARGEST_ANSWER ? { shortened: `${size} characters` } : shortened(answer);
}

/**
 * Long texts cut, long lists (file bytes) as their length, passwords (a new user's, a changed one) never: the journal
 * keeps what was asked, not the files or the secrets.
 */
export function shortened(value: unknown): unknown {
  if (typeof value === 'string' && value.length > LONGEST_TEXT)
    return `${value.slice(0, 200)}… (${value.length} characters)`;
  if (Array.isArray(value))
    return value.length > LONGEST_LIST ? `(${value.length} items)` : value.map((entry) => shortened(entry));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, SECRET_FIELD.test(key) ? NOT_KEPT : shortened(entry)]),
    );
  return value;
}

/** What a dry run answers: what the call would change, or why only the world can tell, and whether it could be undone. */
export interface DryRunAnswer {
  dryRun: true;
  method: string;
  path: string;
  /** The changes the call would make, as the journal would record them; null where only the world can tell. */
  changes: DocumentChangeView[] | null;
  /** The documents the call would touch, as they are now: where `changes` is null. */
  touches?: DocumentStateView[];
  /** Why the call could not be undone once made. */
  notUndoable?: string;
  note: string;
}

/**
 * A dry run: the call was checked as any other (key, scope, parameters, who may do it); nothing is sent that writes.
 * The documents it would touch are read, as the caller's user when the key is bound to one, and for the routes that
 * say how, what it would do to them is worked out from its parameters.
 */
export async function dryRun(
  changes: WorldChanges,
  call: Pick<RecordedCall, 'method' | 'path' | 'parameters'>,
  documents: WorldDocuments,
): Promise<DryRunAnswer> {
  const { method, path } = call;
  if (!isUndoable(changes))
    return {
      dryRun: true,
      method,
      path,
      changes: null,
      notUndoable: changes.notUndoable,
      note: 'The call is valid and nothing was sent to the world; only the world can tell what it would change',
    };
  const touched = outermost(await changes.touches(call.parameters, documents.ask));
  const before = await documents.readAll(touched);
  if (!changes.predict)
    return {
      dryRun: true,
      method,
      path,
      changes: null,
      touches: statesOf(before),
      note: 'The call is valid and nothing was changed; only the world can tell what it would change, so here is what it would touch, as it is now',
    };
  const predicted = changes.predict(call.parameters, before);
  return {
    dryRun: true,
    method,
    path,
    changes: [
      ...touched.flatMap((uuid) => documentChanges(uuid, before.get(uuid), predicted.after.get(uuid))),
      ...(predicted.made ?? []).map(madeChange),
    ],
    note: 'The call is valid and nothing was changed: this is what it would change',
  };
}

function madeChange({ documentName, document }: { documentName: string; document: DocumentData }) {
  const name = typeof document.name === 'string' ? { name: document.name } : {};
  return { uuid: `${documentName}.new`, documentName, ...name, kind: 'created' as const, document };
}
