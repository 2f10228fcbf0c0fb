import type { ChangeView, DocumentChangeView, UndoRefusal } from '../../contracts/admin-api.ts';
import { HttpError } from '../errors.ts';
import type { ChangeJournal } from './change-journal.ts';
import {
  collectionFieldOf,
  depthOf,
  documentChanges,
  documentNameOf,
  parentOf,
  sameValue,
  updatedAt,
  updateTo,
  valueAt,
  type DocumentData,
} from './documents.ts';
import { recordAround, type RecordedCall } from './journaled-call.ts';
import type { WorldDocuments } from './world-documents.ts';

/** One document an undo brings back: to `target`; `left` is how the change left it, unknown when `undefined` is not. */
interface Restoration {
  uuid: string;
  target(now: DocumentData | undefined): DocumentData | undefined | 'gone';
  /** What changed since the change, from how it left the document to `now`; empty when nothing did. */
  since(now: DocumentData | undefined): DocumentChangeView[];
}

/** One write of an undo, through the module's own operations. */
type Step =
  | { kind: 'recreate'; uuid: string; document: DocumentData }
  | { kind: 'update'; uuid: string; data: DocumentData }
  | { kind: 'delete'; uuid: string };

/** Changes being undone now: a second click waits its turn as a refusal, never as a second undo. */
const undoing = new Set<string>();

/**
 * Undoes a change: each document it touched goes back to how it was (an update's fields restored, a deleted document
 * made again with its id and what was embedded in it, a made one deleted), through the module's `create` (keepId),
 * `update` and `delete`. When any of them changed again since, the undo is refused with what differs (409), unless
 * forced. The undo is itself a change of the journal, so it can be undone in turn.
 */
export async function undoChange(
  journal: ChangeJournal,
  id: string,
  options: { force: boolean; by: ChangeView['by'] },
  documents: WorldDocuments,
): Promise<ChangeView> {
  const change = await journal.settled(id);
  if (!change) throw new HttpError(404, 'No change with this id: the journal may have let it go (see its settings)');
  refuseUndoable(change);
  if (undoing.has(id)) throw new HttpError(409, 'This change is being undone already');
  undoing.add(id);
  try {
    return await undoNow(journal, change, options, documents);
  } finally {
    undoing.delete(id);
  }
}

function refuseUndoable(change: ChangeView): void {
  if (change.notUndoable) throw new HttpError(409, `This change cannot be undone: ${change.notUndoable}`);
  if (change.undoneBy)
    throw new HttpError(409, `This change was undone already (change ${change.undoneBy}); undo that to make it again`);
  if (change.state === 'pending') throw new HttpError(409, 'The world has not answered this change yet');
}

async function undoNow(
  journal: ChangeJournal,
  change: ChangeView,
  options: { force: boolean; by: ChangeView['by'] },
  documents: WorldDocuments,
): Promise<ChangeView> {
  const restorations = restorationsOf(change);
  const uuids = restorations.map((restoration) => restoration.uuid);
  const now = await documents.readAll(uuids);
  if (!options.force) refuseChangedSince(change, restorations, now);
  const steps = restorations.flatMap((restoration) => stepsFor(restoration, now.get(restoration.uuid)));
  const call: RecordedCall = {
    clientId: change.clientId,
    ...(change.worldTitle ? { worldTitle: change.worldTitle } : {}),
    by: options.by,
    method: 'POST',
    path: `/admin/changes/${change.id}/undo`,
    summary: `Undo: ${change.summary}`,
    parameters: { id: change.id, force: options.force },
  };
  const { id } = await recordAround(journal, { touches: () => uuids }, call, documents, async () => {
    await applyInOrder(steps, documents);
    return { message: { type: 'undo-result', requestId: change.id, writes: steps.length }, text: '' };
  });
  const undo = await journal.settled(id);
  if (!undo) throw new HttpError(409, 'Nothing to undo: the documents are as they were before this change already');
  journal.settle(change.id, { undoneBy: undo.id });
  if (change.undoes) journal.settle(change.undoes, { undoneBy: undefined });
  return journal.settle(undo.id, { undoes: change.id })!;
}

/** What to bring back, and from what state the change left each document, when it is known. */
function restorationsOf(change: ChangeView): Restoration[] {
  if (change.state === 'done') return change.changes.map(restorationOf);
  // The relay could not see what the call did: its documents go back to how they were before it.
  return (change.before ?? []).map(({ uuid, document }) => ({
    uuid,
    target: () => document,
    since: (now) => documentChanges(uuid, document, now),
  }));
}

function restorationOf(change: DocumentChangeView): Restoration {
  const { uuid } = change;
  switch (change.kind) {
    case 'created':
      return { uuid, target: () => undefined, since: (now) => documentChanges(uuid, change.document, now) };
    case 'deleted':
      return { uuid, target: () => change.document, since: (now) => documentChanges(uuid, undefined, now) };
    case 'changed': {
      const fields = change.fields ?? [];
      return {
        uuid,
        target: (now) => (now ? updatedAt(uuid, now, updateTo(fields, 'before')) : 'gone'),
        since: (now) => {
          if (!now) return [{ uuid, documentName: change.documentName, ...named(change), kind: 'deleted' }];
          const differing = fields.flatMap((field) => {
            const current = valueAt(now, field.path);
            const left = Object.hasOwn(field, 'after');
            if (current.present === left && (!left || sameValue(current.value, field.after))) return [];
            return [
              {
                path: field.path,
                ...(left ? { before: field.after } : {}),
                ...(current.present ? { after: current.value } : {}),
              },
            ];
          });
          return differing.length > 0
            ? [{ uuid, documentName: change.documentName, ...named(change), kind: 'changed', fields: differing }]
            : [];
        },
      };
    }
  }
}

function named(change: DocumentChangeView): { name?: string } {
  return change.name === undefined ? {} : { name: change.name };
}

function refuseChangedSince(
  change: ChangeView,
  restorations: Restoration[],
  now: ReadonlyMap<string, DocumentData | undefined>,
): void {
  const differences = restorations.flatMap((restoration) => restoration.since(now.get(restoration.uuid)));
  if (change.state !== 'done') {
    const refusal: UndoRefusal = {
      error:
        'The relay could not see what this call did (it stopped, or the world went silent): undo with force to put the documents it touched back as they were before it; anything it made stays',
      differences,
    };
    throw new HttpError(409, refusal.error, { differences });
  }
  if (differences.length === 0) return;
  const refusal: UndoRefusal = {
    error:
      'These documents changed again since: undo with force to put them back as they were before the change all the same, or leave them',
    differences,
  };
  throw new HttpError(409, refusal.error, { differences });
}

/** The writes that take one document from `now` to its target: the changes between them, turned around. */
function stepsFor(restoration: Restoration, now: DocumentData | undefined): Step[] {
  const target = restoration.target(now);
  // Fields of a document that is gone cannot be put back; a forced undo leaves it gone.
  if (target === 'gone') return [];
  return documentChanges(restoration.uuid, now, target).map((difference): Step => {
    if (difference.kind === 'created')
      return { kind: 'recreate', uuid: difference.uuid, document: difference.document! };
    if (difference.kind === 'deleted') return { kind: 'delete', uuid: difference.uuid };
    return { kind: 'update', uuid: difference.uuid, data: updateTo(difference.fields ?? [], 'after') };
  });
}

/**
 * Documents made again first (folders before what they hold, parents before what is embedded in them), then fields
 * put back, then what the change made deleted (embedded ones before their parents).
 */
async function applyInOrder(steps: Step[], documents: WorldDocuments): Promise<void> {
  const recreations = recreationOrder(steps.filter((step) => step.kind === 'recreate'));
  const updates = steps.filter((step) => step.kind === 'update');
  const deletions = steps
    .filter((step) => step.kind === 'delete')
    .sort((left, right) => depthOf(right.uuid) - depthOf(left.uuid));
  for (const step of [...recreations, ...updates, ...deletions]) await apply(step, documents);
}

function recreationOrder(steps: Extract<Step, { kind: 'recreate' }>[]): Extract<Step, { kind: 'recreate' }>[] {
  const rank = (step: Extract<Step, { kind: 'recreate' }>) =>
    depthOf(step.uuid) * 1_000 + (documentNameOf(step.uuid) === 'Folder' ? folderDepth(step, steps) : 999);
  return [...steps].sort((left, right) => rank(left) - rank(right));
}

/** How many of the folders being made again lie above this one. */
function folderDepth(step: { document: DocumentData }, steps: readonly { uuid: string; document: DocumentData }[]) {
  let depth = 0;
  let parent = step.document.folder;
  while (typeof parent === 'string' && depth < 100) {
    const above = steps.find((candidate) => candidate.uuid === `Folder.${parent as string}`);
    if (!above) break;
    depth += 1;
    parent = above.document.folder;
  }
  return depth;
}

async function apply(step: Step, documents: WorldDocuments): Promise<void> {
  if (step.kind === 'delete') {
    await documents.ask('delete', { uuid: step.uuid });
    return;
  }
  if (step.kind === 'update') {
    await documents.ask('update', { uuid: step.uuid, data: step.data });
    return;
  }
  const parent = parentOf(step.uuid);
  if (parent === undefined) {
    const folder = typeof step.document.folder === 'string' ? { folder: step.document.folder } : {};
    await documents.ask('create', {
      entityType: documentNameOf(step.uuid),
      data: step.document,
      keepId: true,
      ...folder,
    });
    return;
  }
  // Foundry makes an embedded document through its parent: an entry the parent's collection does not hold is created,
  // with its id.
  await documents.ask('update', { uuid: parent, data: { [collectionFieldOf(step.uuid)!]: [step.document] } });
}
