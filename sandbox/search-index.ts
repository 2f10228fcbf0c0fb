// The module's native search index (module-operations.md §6): world entries kept in sync by document hooks,
// compendium entries indexed once on first use and never refreshed.
import { DOCUMENT_TYPES } from '../contracts/world-protocol.ts';
import type { WorldDocument } from './world/document.ts';
import type { Game } from './world/game.ts';

export interface SearchEntry {
  documentType: string;
  id: string;
  name: string;
  uuid: string;
  folder: string | null;
  pack: string | null;
  packageName: string | null;
  subType: string;
  icon: string;
  tagline: string;
  resultType: 'WorldEntity' | 'CompendiumEntity';
}

export interface SearchHit {
  entry: SearchEntry;
  score: number;
  formattedMatch: string;
}

export type SearchFilters = Record<string, unknown>;

const TAGLINES: Record<string, string> = {
  Actor: 'Actors Directory',
  Item: 'Items Directory',
  Scene: 'Scenes Directory',
  JournalEntry: 'Journal Directory',
  RollTable: 'Roll Tables Directory',
  Cards: 'Cards Directory',
  Macro: 'Macros Directory',
  Playlist: 'Playlists Directory',
};

export class SearchIndex {
  readonly #game: Game;
  readonly #world = new Map<string, SearchEntry>();
  #compendium: Map<string, SearchEntry> | null = null;

  constructor(game: Game) {
    this.#game = game;
    for (const documentType of DOCUMENT_TYPES) {
      for (const document of game.collectionOf(documentType)?.contents ?? []) this.#add(document);
      game.hooks.on(`create${documentType}`, (document) => this.#add(document as WorldDocument));
      game.hooks.on(`update${documentType}`, (document) => this.#add(document as WorldDocument));
      game.hooks.on(`delete${documentType}`, (document) => this.#world.delete((document as WorldDocument).uuid));
    }
  }

  search(
    query: string,
    options: { limit?: number; excludeCompendiums?: boolean; filters?: SearchFilters } = {},
  ): SearchHit[] {
    const entries = [...this.#world.values()];
    if (!options.excludeCompendiums) entries.push(...this.#compendiumEntries().values());
    const hits: SearchHit[] = [];
    for (const entry of entries) {
      if (options.filters && !matchesAllFilters(entry, options.filters)) continue;
      if (!query) {
        hits.push({ entry, score: 0, formattedMatch: entry.name });
        continue;
      }
      const match = scoreMatch(entry.name, query);
      if (match) hits.push({ entry, ...match });
    }
    hits.sort((a, b) => b.score - a.score || a.entry.name.localeCompare(b.entry.name));
    return hits.slice(0, options.limit ?? 200);
  }

  /** Entries are keyed by uuid; a re-add keeps the entry's original position, as a Map does. */
  #add(document: WorldDocument): void {
    if (!document.uuid || !document.name) return;
    this.#world.set(document.uuid, {
      documentType: document.documentName,
      id: document.id,
      name: document.name,
      uuid: document.uuid,
      folder: document.folderId,
      pack: null,
      packageName: null,
      subType: document.type || '',
      icon: document.img || (document.source.thumb as string | undefined) || '',
      tagline: TAGLINES[document.documentName] ?? `${document.documentName}s Directory`,
      resultType: 'WorldEntity',
    });
  }

  #compendiumEntries(): Map<string, SearchEntry> {
    if (this.#compendium) return this.#compendium;
    this.#compendium = new Map();
    for (const pack of this.#game.packs.values()) {
      for (const document of pack.documents.values()) {
        this.#compendium.set(document.uuid, {
          documentType: pack.documentName,
          id: document.id,
          name: document.name,
          uuid: document.uuid,
          folder: null,
          pack: pack.collection,
          packageName: pack.title,
          subType: document.type || '',
          icon: document.img || '',
          tagline: pack.title,
          resultType: 'CompendiumEntity',
        });
      }
    }
    return this.#compendium;
  }
}

/** Ranking tiers: exact 100, prefix 80, substring 60, word prefix 40, subsequence 20 (case-insensitive). */
export function scoreMatch(name: string, query: string): { score: number; formattedMatch: string } | null {
  if (!name || !query) return null;
  const lowerName = name.toLowerCase();
  const lowerQuery = query.toLowerCase();
  if (lowerName === lowerQuery) return { score: 100, formattedMatch: `<strong>${name}</strong>` };
  if (lowerName.startsWith(lowerQuery)) {
    return { score: 80, formattedMatch: `<strong>${name.slice(0, query.length)}</strong>${name.slice(query.length)}` };
  }
  const at = lowerName.indexOf(lowerQuery);
  if (at !== -1) {
    const end = at + query.length;
    return {
      score: 60,
      formattedMatch: `${name.slice(0, at)}<strong>${name.slice(at, end)}</strong>${name.slice(end)}`,
    };
  }
  if (name.split(/\s+/).some((word) => word.toLowerCase().startsWith(lowerQuery)))
    return { score: 40, formattedMatch: name };
  return isSubsequence(lowerQuery, lowerName) ? { score: 20, formattedMatch: name } : null;
}

function isSubsequence(needle: string, haystack: string): boolean {
  let found = 0;
  for (const char of haystack) {
    if (char === needle[found]) found++;
    if (found === needle.length) return true;
  }
  return found === needle.length;
}

/** `parseFilterString`: a bare word is a document type; otherwise comma-separated `key:value` pairs. */
export function parseFilterString(filter: string): Record<string, string> {
  if (!filter.includes(':')) return { documentType: filter };
  const filters: Record<string, string> = {};
  for (const part of filter.split(',')) {
    if (!part.includes(':')) continue;
    const [key, value] = part.split(':');
    if (key && value) filters[key.trim()] = value.trim();
  }
  return filters;
}

export function matchesAllFilters(entry: SearchEntry, filters: SearchFilters): boolean {
  return Object.entries(filters).every(([key, value]) => !value || matchesFilter(entry, key, String(value)));
}

function matchesFilter(entry: SearchEntry, key: string, value: string): boolean {
  const lowerValue = value.toLowerCase();
  if (key === 'resultType') return entry.resultType.toLowerCase() === lowerValue;
  if (key === 'package') {
    return (
      entry.pack !== null &&
      (entry.pack.toLowerCase() === lowerValue || `compendium.${entry.pack.toLowerCase()}` === lowerValue)
    );
  }
  if (key === 'folder') {
    return (
      entry.folder !== null &&
      (value === entry.folder || value === `Folder.${entry.folder}` || `Folder.${value}` === entry.folder)
    );
  }
  const property = (entry as unknown as Record<string, unknown>)[key];
  if (property === undefined) return false;
  return typeof property !== 'string' || property.toLowerCase() === lowerValue;
}
