// search (module-operations.md §6.4): the index query, then permission filtering, dedupe and the owner filter.
import { parseFilterString, type SearchEntry, type SearchFilters, type SearchHit } from '../search-index.ts';
import { OWNERSHIP, type WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { hasPermission, resolveUser } from '../world/permissions.ts';
import { isTrue, reply, requestUser, type OperationTable } from './context.ts';

function minifiedRow(entry: SearchEntry) {
  return { uuid: entry.uuid, id: entry.id, name: entry.name, img: entry.icon, documentType: entry.documentType };
}

function fullRow(hit: SearchHit) {
  const { entry } = hit;
  return {
    documentType: entry.documentType,
    folder: entry.folder,
    id: entry.id,
    name: entry.name,
    package: entry.pack,
    packageName: entry.packageName,
    subType: entry.subType,
    uuid: entry.uuid,
    icon: entry.icon,
    journalLink: `@UUID[${entry.uuid}]{${entry.name}}`,
    tagline: entry.tagline,
    formattedMatch: hit.formattedMatch,
    resultType: entry.resultType,
  };
}

type Row = ReturnType<typeof minifiedRow> | ReturnType<typeof fullRow>;

/** OBSERVER → full row, LIMITED → minified, none → dropped; unresolvable documents stay as full rows. */
function rowFor(game: Game, hit: SearchHit, user: WorldDocument | null, minified: boolean): Row | null {
  if (user) {
    const document = game.fromUuid(hit.entry.uuid);
    if (document && !hasPermission(game, document, user, OWNERSHIP.OBSERVER)) {
      return hasPermission(game, document, user, OWNERSHIP.LIMITED) ? minifiedRow(hit.entry) : null;
    }
  }
  return minified ? minifiedRow(hit.entry) : fullRow(hit);
}

function parseFilter(filter: unknown): SearchFilters | undefined {
  if (typeof filter === 'string') return parseFilterString(filter);
  if (filter && typeof filter === 'object') return filter as SearchFilters;
  return undefined;
}

export const searchOperations: OperationTable = {
  search: async (request, { game, searchIndex }) => {
    const resolved = requestUser(request, game);
    if ('refusal' in resolved) return resolved.refusal;
    const { user } = resolved;
    const query = request.query as string | undefined;
    try {
      const minified = isTrue(request.minified);
      const limit = Math.min(Number.parseInt(String(request.limit)) || 200, 500);
      const hits = searchIndex.search(query ?? '', {
        limit,
        excludeCompendiums: isTrue(request.excludeCompendiums),
        filters: parseFilter(request.filter),
      });
      const seen = new Set<string>();
      let results = hits
        .map((hit) => rowFor(game, hit, user, minified))
        .filter((row): row is Row => row !== null && !seen.has(row.uuid) && Boolean(seen.add(row.uuid)));
      const owner = resolveUser(game, request.ownedByUserId);
      if (owner)
        results = results.filter((row) => hasPermission(game, game.fromUuid(row.uuid), owner, OWNERSHIP.OWNER));
      return reply(request, { clientId: request.clientId, query, filter: request.filter, results });
    } catch (error) {
      return reply(request, { query, error: error instanceof Error ? error.message : String(error), results: [] });
    }
  },
};
