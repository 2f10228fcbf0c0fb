import type { DocumentChangeView, FieldChangeView } from '../../contracts/admin-api.ts';
import { embeddedCollectionsOf } from '../../contracts/foundry-documents.ts';
import { fieldsOf } from '../objects.ts';

// What the journal knows of Foundry's documents: their uuids, their embedded collections, and how two states of one
// differ. Documents are their source data as the world's `entity` operation answers (`toObject()`), Foundry's own
// bookkeeping (`_stats`) left out.

export type DocumentData = Record<string, unknown>;
export type DocumentChange = DocumentChangeView;
export type FieldChange = FieldChangeView;

/** The document type a uuid names: `Actor.x` an Actor, `Scene.s.Token.t` a Token, `Compendium.p.q.Item.i` an Item. */
export function documentNameOf(uuid: string): string {
  const parts = uuid.split('.');
  return parts[parts.length - 2] ?? '';
}

/** The uuid of the document an embedded one lives in; undefined for a world document. */
export function parentOf(uuid: string): string | undefined {
  const parts = uuid.split('.');
  return parts.length > 2 ? parts.slice(0, -2).join('.') : undefined;
}

/** The field of its parent's source that holds an embedded document, e.g. `items` for `Actor.a.Item.i`. */
export function collectionFieldOf(uuid: string): string | undefined {
  const parent = parentOf(uuid);
  if (parent === undefined) return undefined;
  const embedded = embeddedCollectionsOf(documentNameOf(parent));
  return Object.keys(embedded).find((field) => embedded[field] === documentNameOf(uuid));
}

/** Steps of `uuid` in the tree of documents: a world document is 1, each embedding adds one. */
export function depthOf(uuid: string): number {
  return Math.floor(uuid.split('.').length / 2);
}

/** The document without Foundry's bookkeeping (`_stats`, at any depth), which every write changes. */
export function comparable(document: DocumentData): DocumentData {
  return withoutStats(document) as DocumentData;
}

function withoutStats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutStats);
  const fields = fieldsOf(value);
  if (!fields) return value;
  const result: DocumentData = {};
  for (const [key, entry] of Object.entries(fields)) if (key !== '_stats') result[key] = withoutStats(entry);
  return result;
}

export function sameValue(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((entry, index) => sameValue(entry, right[index]));
  }
  const a = fieldsOf(left);
  const b = fieldsOf(right);
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]))
  );
}

/**
 * What turned `before` into `after` for the document at `uuid` and those embedded in it: made, deleted (with all it
 * held), or changed field by field, each embedded document a change of its own.
 */
export function documentChanges(
  uuid: string,
  before: DocumentData | undefined,
  after: DocumentData | undefined,
): DocumentChange[] {
  const documentName = documentNameOf(uuid);
  if (!before && !after) return [];
  if (!before) return [{ uuid, documentName, ...named(after!), kind: 'created', document: after }];
  if (!after) return [{ uuid, documentName, ...named(before), kind: 'deleted', document: before }];
  const embedded = embeddedCollectionsOf(documentName);
  const fields = fieldChanges(ownFields(before, embedded), ownFields(after, embedded));
  const changes: DocumentChange[] =
    fields.length > 0 ? [{ uuid, documentName, ...named(after), kind: 'changed', fields }] : [];
  for (const [field, embeddedName] of Object.entries(embedded)) {
    const beforeChildren = childrenById(before[field]);
    const afterChildren = childrenById(after[field]);
    for (const id of new Set([...beforeChildren.keys(), ...afterChildren.keys()])) {
      changes.push(...documentChanges(`${uuid}.${embeddedName}.${id}`, beforeChildren.get(id), afterChildren.get(id)));
    }
  }
  return changes;
}

function named(document: DocumentData): { name?: string } {
  return typeof document.name === 'string' && document.name !== '' ? { name: document.name } : {};
}

function ownFields(document: DocumentData, embedded: Readonly<Record<string, string>>): DocumentData {
  const own: DocumentData = {};
  for (const [key, value] of Object.entries(document)) if (!Object.hasOwn(embedded, key)) own[key] = value;
  return own;
}

function childrenById(value: unknown): Map<string, DocumentData> {
  const children = new Map<string, DocumentData>();
  if (!Array.isArray(value)) return children;
  for (const entry of value) {
    const child = fieldsOf(entry);
    if (child && typeof child._id === 'string') children.set(child._id, child);
  }
  return children;
}

/** Each leaf that differs, by its dotted path; lists are compared whole, a field one side lacks is left out there. */
export function fieldChanges(before: DocumentData, after: DocumentData, prefix = ''): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const path = `${prefix}${key}`;
    const [had, has] = [Object.hasOwn(before, key), Object.hasOwn(after, key)];
    const [was, is] = [before[key], after[key]];
    const wasObject = fieldsOf(was);
    const isObject = fieldsOf(is);
    if (had && has && wasObject && isObject) changes.push(...fieldChanges(wasObject, isObject, `${path}.`));
    else if (had !== has || !sameValue(was, is))
      changes.push({ path, ...(had ? { before: was } : {}), ...(has ? { after: is } : {}) });
  }
  return changes;
}

/** The value at a dotted path, and whether it is there at all. */
export function valueAt(document: DocumentData, path: string): { present: boolean; value?: unknown } {
  let current: unknown = document;
  for (const key of path.split('.')) {
    const fields = fieldsOf(current);
    if (!fields || !Object.hasOwn(fields, key)) return { present: false };
    current = fields[key];
  }
  return { present: true, value: current };
}

/**
 * The update that gives each field its value on one side of the changes: a dotted key per field, and Foundry's `-=key`
 * to remove one that side did not have.
 */
export function updateTo(fields: readonly FieldChange[], side: 'before' | 'after'): DocumentData {
  const update: DocumentData = {};
  for (const change of fields) {
    if (Object.hasOwn(change, side)) {
      update[change.path] = change[side];
      continue;
    }
    const cut = change.path.lastIndexOf('.');
    update[cut < 0 ? `-=${change.path}` : `${change.path.slice(0, cut)}.-=${change.path.slice(cut + 1)}`] = null;
  }
  return update;
}

/**
 * The document at `uuid` as Foundry's `update` would leave it: dotted keys are paths, objects merge key by key, `-=key`
 * removes a field, and an embedded collection's entries merge by `_id` (an unknown one is added). A dry run's guess.
 */
export function updatedAt(uuid: string, document: DocumentData, changes: DocumentData): DocumentData {
  const result = structuredClone(document);
  mergeInto(result, expanded(changes), embeddedCollectionsOf(documentNameOf(uuid)));
  return result;
}

function expanded(flat: DocumentData): DocumentData {
  const result: DocumentData = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let target = result;
    for (const part of parts.slice(0, -1)) target = (fieldsOf(target[part]) ?? (target[part] = {})) as DocumentData;
    const object = fieldsOf(value);
    target[parts[parts.length - 1]!] = object ? expanded(object) : value;
  }
  return result;
}

function mergeInto(target: DocumentData, changes: DocumentData, embedded: Readonly<Record<string, string>> = {}): void {
  for (const [key, value] of Object.entries(changes)) {
    if (key.startsWith('-=')) {
      delete target[key.slice(2)];
      continue;
    }
    const existing = fieldsOf(target[key]);
    const object = fieldsOf(value);
    if (Object.hasOwn(embedded, key) && Array.isArray(value)) mergeChildren(target, key, value);
    else if (existing && object) mergeInto(existing, object);
    else target[key] = structuredClone(value);
  }
}

function mergeChildren(target: DocumentData, field: string, entries: unknown[]): void {
  const children = Array.isArray(target[field]) ? (target[field] as unknown[]) : [];
  target[field] = children;
  for (const entry of entries) {
    const changes = fieldsOf(entry);
    if (!changes) continue;
    const child = children.map(fieldsOf).find((candidate) => candidate && candidate._id === changes._id);
    if (child) mergeInto(child, expanded(changes));
    else children.push(structuredClone(changes));
  }
}
