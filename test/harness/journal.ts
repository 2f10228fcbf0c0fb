import type { ChangeView } from '../../contracts/admin-api.ts';
import type { WorldHarness } from './world.ts';

/**
 * Every document of the sandbox world, as Foundry keeps it (`_stats` left out), for comparing the world whole, document
 * by document: embedded documents by id too, since a collection's order is not Foundry's (sheets sort by `sort`).
 */
export function worldState(harness: WorldHarness): Record<string, unknown> {
  const { game } = harness.world;
  const state: Record<string, unknown> = {};
  for (const [name, collection] of Object.entries(game.collections)) {
    state[name] = collection.contents
      .map((document) => documentState(document.toObject()))
      .sort((left, right) => String(left._id).localeCompare(String(right._id)));
  }
  return state;
}

/** One document as `worldState` compares it: `_stats` left out at any depth, embedded documents by id. */
export function documentState(value: unknown): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(value, (key, entry) => {
      if (key === '_stats') return undefined;
      return Array.isArray(entry) && entry.every((child) => typeof child?._id === 'string')
        ? [...entry].sort((left, right) => left._id.localeCompare(right._id))
        : entry;
    }),
  );
}

/** The journal's change once the world has answered it and it was read again. */
export async function settledChange(
  harness: WorldHarness,
  match: (change: ChangeView) => boolean,
): Promise<ChangeView> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { body } = await harness.admin<{ changes: ChangeView[] }>('GET', '/admin/changes?limit=1000');
    const change = body.changes.find(match);
    if (change && change.state !== 'pending') return change;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no such change was recorded');
}

/** The newest change of the journal whose route is this one. */
export function latestOf(harness: WorldHarness, method: string, path: string): Promise<ChangeView> {
  return settledChange(harness, (change) => change.method === method && change.path === path);
}
