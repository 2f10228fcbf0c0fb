import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

const ENTRY_KEYS = [
  'documentType',
  'folder',
  'formattedMatch',
  'icon',
  'id',
  'journalLink',
  'name',
  'package',
  'packageName',
  'resultType',
  'subType',
  'tagline',
  'uuid',
];

function tierOf(name: string, query: string): number {
  const lowerName = name.toLowerCase();
  const lowerQuery = query.toLowerCase();
  if (lowerName === lowerQuery) return 100;
  if (lowerName.startsWith(lowerQuery)) return 80;
  if (lowerName.includes(lowerQuery)) return 60;
  return 20;
}

describe('Search', () => {
  it('GET /search answers {type, requestId, filter, results} with full entries', async () => {
    const answer = await harness.get('/search', { query: 'goblin', filter: 'resultType:WorldEntity' });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('search-result');
    expect(answer.body.requestId).toMatch(/^search_\d{13}$/);
    expect(answer.body.filter).toBe('resultType:WorldEntity');
    expect(answer.body.results.length).toBeGreaterThan(5);
    for (const entry of answer.body.results) {
      expect(Object.keys(entry).sort()).toEqual(ENTRY_KEYS);
      expect(entry.journalLink).toBe(`@UUID[${entry.uuid}]{${entry.name}}`);
    }
    expect(answer.body.results.find((entry: { name: string }) => entry.name === 'Goblin').resultType).toBe(
      'WorldEntity',
    );
  });

  it('ranks exact, then prefix, then substring, then subsequence matches', async () => {
    const answer = await harness.get('/search', { query: 'goblin' });
    const names: string[] = answer.body.results.map((entry: { name: string }) => entry.name);
    const tiers = names.map((name) => tierOf(name, 'goblin'));
    expect(tiers).toEqual([...tiers].sort((a, b) => b - a));
    expect(names[0]).toBe('Goblin');
    expect(tiers).toContain(80);
    expect(tiers).toContain(60);
    expect(tiers).toContain(20);
    expect(names).toContain('Hobgoblin');
  });

  it('filters by document type, simple or compound', async () => {
    const actors = await harness.get('/search', { query: 'goblin', filter: 'Actor' });
    expect(new Set(actors.body.results.map((entry: { documentType: string }) => entry.documentType))).toEqual(
      new Set(['Actor']),
    );
    const weapons = await harness.get('/search', { query: 'goblin', filter: 'documentType:Item,subType:weapon' });
    expect(weapons.body.results.length).toBeGreaterThan(0);
    for (const entry of weapons.body.results) expect(entry).toMatchObject({ documentType: 'Item', subType: 'weapon' });
  });

  it('includes compendiums unless excludeCompendiums', async () => {
    const all = await harness.get('/search', { query: 'goblin' });
    expect(all.body.results.some((entry: { resultType: string }) => entry.resultType === 'CompendiumEntity')).toBe(
      true,
    );
    const worldOnly = await harness.get('/search', { query: 'goblin', excludeCompendiums: true });
    expect(worldOnly.body.results.every((entry: { resultType: string }) => entry.resultType === 'WorldEntity')).toBe(
      true,
    );
  });

  it('browses everything when the query is omitted, up to the default limit of 200', async () => {
    const answer = await harness.get('/search');
    expect(answer.status).toBe(200);
    expect(answer.body.results.length).toBeGreaterThan(30);
    expect(answer.body.results.length).toBeLessThanOrEqual(200);
  });

  it('honours limit, and refuses more than 500', async () => {
    const two = await harness.get('/search', { query: 'goblin', limit: 2 });
    expect(two.body.results).toHaveLength(2);
    const tooMany = await harness.get('/search', { query: 'goblin', limit: 501 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: "'limit' must be between 1 and 500" });
    const atMost = await harness.get('/search', { query: 'goblin', limit: 500 });
    expect(atMost.status).toBe(200);
  });

  it('minified entries hold only uuid, id, name, img and documentType', async () => {
    const answer = await harness.get('/search', { query: 'goblin', minified: true });
    for (const entry of answer.body.results)
      expect(Object.keys(entry).sort()).toEqual(['documentType', 'id', 'img', 'name', 'uuid']);
  });

  it('ownedByUserId keeps only what that user owns', async () => {
    const answer = await harness.get('/search', { filter: 'Actor', excludeCompendiums: true, ownedByUserId: 'Alice' });
    expect(answer.body.results.map((entry: { name: string }) => entry.name)).toEqual(['Thorin Ironfoot']);
  });

  it('a player sees only what they may: limited documents minified, hidden ones not at all', async () => {
    const answer = await harness.get('/search', { filter: 'Actor', excludeCompendiums: true, userId: 'Alice' });
    const names = answer.body.results.map((entry: { name: string }) => entry.name);
    expect(names).toContain('Thorin Ironfoot');
    expect(names).toContain('Innkeeper Bram');
    expect(names).not.toContain('Goblin');
    const innkeeper = answer.body.results.find((entry: { name: string }) => entry.name === 'Innkeeper Bram');
    expect(Object.keys(innkeeper).sort()).toEqual(['documentType', 'id', 'img', 'name', 'uuid']);
  });

  it('rejects a boolean that is not one', async () => {
    const answer = await harness.get('/search', { query: 'x', minified: 'perhaps' });
    expect(answer.body).toEqual({ error: "'minified' must be true or false" });
  });
});
