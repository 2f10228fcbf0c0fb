import { embeddedCollectionsOf } from '../../contracts/foundry-documents.ts';
import { deepClone, type PlainObject } from './objects.ts';

export const OWNERSHIP = { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } as const;

export class DocumentCollection extends Map<string, WorldDocument> {
  get contents(): WorldDocument[] {
    return [...this.values()];
  }

  find(predicate: (document: WorldDocument) => boolean): WorldDocument | undefined {
    return this.contents.find(predicate);
  }

  filter(predicate: (document: WorldDocument) => boolean): WorldDocument[] {
    return this.contents.filter(predicate);
  }

  getName(name: string): WorldDocument | undefined {
    return this.find((document) => document.name === name);
  }
}

/**
 * A Foundry document reduced to what the module reads: its source data, its parent and its embedded collections.
 * `source` never holds the embedded arrays; `toObject()` puts them back.
 */
export class WorldDocument {
  readonly documentName: string;
  readonly parent: WorldDocument | null;
  /** Compendium collection id when the document lives in a pack. */
  readonly pack: string | null;
  readonly source: PlainObject;
  readonly embedded = new Map<string, DocumentCollection>();
  /** The major Foundry version whose schema the document follows. */
  readonly generation: number;

  constructor(
    documentName: string,
    source: PlainObject,
    parent: WorldDocument | null = null,
    pack: string | null = null,
    generation = 13,
  ) {
    this.documentName = documentName;
    this.parent = parent;
    this.pack = pack;
    this.source = source;
    this.generation = generation;
    for (const embeddedName of embeddedNamesOf(documentName, generation)) {
      this.embedded.set(embeddedName, new DocumentCollection());
    }
  }

  get id(): string {
    return this.source._id as string;
  }

  get name(): string {
    return (this.source.name as string | undefined) ?? '';
  }

  get type(): string | undefined {
    return this.source.type as string | undefined;
  }

  get img(): string | null {
    return (this.source.img as string | null | undefined) ?? null;
  }

  get folderId(): string | null {
    return (this.source.folder as string | null | undefined) ?? null;
  }

  get ownership(): Record<string, number> {
    return (this.source.ownership as Record<string, number> | undefined) ?? { default: OWNERSHIP.NONE };
  }

  get system(): PlainObject {
    return (this.source.system as PlainObject | undefined) ?? {};
  }

  get uuid(): string {
    if (this.parent) return `${this.parent.uuid}.${this.documentName}.${this.id}`;
    if (this.pack) return `Compendium.${this.pack}.${this.documentName}.${this.id}`;
    return `${this.documentName}.${this.id}`;
  }

  collection(embeddedName: string): DocumentCollection {
    const collection = this.embedded.get(embeddedName);
    if (!collection) throw new Error(`${this.documentName} has no embedded ${embeddedName} collection`);
    return collection;
  }

  /** The source data including embedded documents, as `Document#toObject()` gives it. */
  toObject(): PlainObject {
    const data = deepClone(this.source);
    const collections = embeddedCollectionsOf(this.documentName, this.generation);
    for (const [field, embeddedName] of Object.entries(collections)) {
      data[field] = this.collection(embeddedName).contents.map((child) => child.toObject());
    }
    return data;
  }

  /** Documents serialize as their source data, as Foundry's do. */
  toJSON(): PlainObject {
    return this.toObject();
  }

  /** The document as property paths see it (`getProperty(actor, "system.hp")`, `actor.id`). */
  view(): PlainObject {
    return { ...this.toObject(), id: this.id, uuid: this.uuid, documentName: this.documentName };
  }
}

export function embeddedNamesOf(documentName: string, generation = 13): string[] {
  return Object.values(embeddedCollectionsOf(documentName, generation));
}

export function embeddedFieldOf(parentName: string, embeddedName: string, generation = 13): string | undefined {
  const collections = embeddedCollectionsOf(parentName, generation);
  return Object.keys(collections).find((field) => collections[field] === embeddedName);
}
