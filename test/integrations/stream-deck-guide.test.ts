// docs/STREAM-DECK.md says what the plugin and the module need and do: its scopes table is checked against the relay's
// route tables and the deck's key request, its pictures and actions against the plugin's manifest, and its Companion
// section against the module's own definitions.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECK_SCOPES } from '../../integrations/client/actions.ts';
import type { WorldSnapshot } from '../../integrations/client/world-state.ts';
import { actionDefinitions } from '../../integrations/companion/actions.ts';
import { feedbackDefinitions } from '../../integrations/companion/feedbacks.ts';
import { presetDefinitions } from '../../integrations/companion/presets.ts';
import { variableDefinitions } from '../../integrations/companion/variables.ts';
import { allRoutes } from '../../relay/routes.ts';
import { scopeOf } from '../../relay/routing/route.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const GUIDE = readFileSync(join(ROOT, 'docs', 'STREAM-DECK.md'), 'utf8');
const MANIFEST = JSON.parse(
  readFileSync(join(ROOT, 'integrations', 'streamdeck', 'static', 'manifest.json'), 'utf8'),
) as {
  UUID: string;
  Actions: { Name: string; UUID: string }[];
};

/** The section under a `## ` heading, up to the next one. */
function section(heading: string): string {
  const start = GUIDE.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/STREAM-DECK.md has a section "${heading}"`).toBeGreaterThan(-1);
  const next = GUIDE.indexOf('\n## ', start + 1);
  return GUIDE.slice(start, next === -1 ? undefined : next);
}

/** The scopes table: each row's calls (`METHOD /path`) and scopes. */
function scopeRows(): { action: string; calls: string[]; scopes: string[] }[] {
  return section('What each action needs from the relay')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Action') && !line.startsWith('|---'))
    .map((line) => {
      const [action = '', calls = '', scopes = ''] = line
        .split('|')
        .slice(1)
        .map((cell) => cell.trim());
      const quoted = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
      return { action, calls: quoted(calls), scopes: quoted(scopes) };
    });
}

describe('docs/STREAM-DECK.md', () => {
  it("gives each call the scope the relay's route table requires, and no scope no call needs", () => {
    const rows = scopeRows();
    expect(rows.length).toBeGreaterThanOrEqual(7);
    for (const row of rows) {
      const needed = row.calls.map((call) => {
        const route = allRoutes.find((candidate) => `${candidate.method} ${candidate.path}` === call);
        expect(route, `${row.action}: ${call} is a route of the relay`).toBeDefined();
        return scopeOf(route!);
      });
      expect([...new Set(needed)].sort(), row.action).toEqual([...row.scopes].sort());
    }
  });

  it("lists exactly the scopes the plugin's and the module's key requests ask for", () => {
    const listed = new Set(scopeRows().flatMap((row) => row.scopes));
    expect([...listed].sort()).toEqual([...DECK_SCOPES].sort());
  });

  it("shows every action of the plugin's manifest with the picture of its key, and every picture exists", () => {
    const actions = section('The Stream Deck actions');
    for (const action of MANIFEST.Actions) {
      const name = action.UUID.slice(MANIFEST.UUID.length + 1);
      expect(actions, action.Name).toContain(`**${action.Name}**`);
      expect(actions, action.Name).toContain(`](images/streamdeck-${name}.png)`);
    }
    const pictures = [...GUIDE.matchAll(/\]\((images\/[^)]+\.png)\)/g)].map((match) => match[1]!);
    expect(pictures.length).toBeGreaterThan(MANIFEST.Actions.length);
    for (const picture of pictures) expect(existsSync(join(ROOT, 'docs', picture)), picture).toBe(true);
  });

  it("names the Companion module's actions, feedbacks, variables and preset pages as the module defines them", () => {
    // As read: the paragraphs' line breaks are spaces.
    const companion = section('Companion: actions, feedbacks, variables and presets').replace(/\s+/g, ' ');
    const names = (definitions: Record<string, unknown>) =>
      Object.values(definitions).map((definition) => (definition as { name: string }).name);
    const snapshot = {} as WorldSnapshot;
    const choices = { playlists: [], combatants: [], actors: [] };
    const context = {
      client: () => {
        throw new Error('no call while listing');
      },
      snapshot: () => snapshot,
    };
    for (const name of names(actionDefinitions(context, choices))) expect(companion).toContain(name);
    for (const name of names(feedbackDefinitions(() => snapshot, choices))) expect(companion).toContain(name);
    for (const variable of Object.keys(variableDefinitions([]))) expect(companion).toContain(`\`${variable}\``);
    const actor = { uuid: 'Actor.abc123', slug: 'goblin', label: 'Goblin' };
    expect(Object.keys(variableDefinitions([actor]))).toContain('hp_goblin');
    expect(companion).toContain('`hp_goblin`');
    for (const page of presetDefinitions('relay', choices, []).structure)
      expect(companion).toContain(`**${page.name}**`);
  });
});
