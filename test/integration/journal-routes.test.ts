import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../relay/routes.ts';
import { isUndoable } from '../../relay/journal/changes.ts';
import type { WorldRoute } from '../../relay/routing/route.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { settledChange, worldState } from '../harness/journal.ts';

// Walks the route tables: every route that is not a GET either says why its calls cannot be undone, or has a sample call
// here that is made, found in the journal, undone, and the whole world compared document by document with how it was.
// A new writing route fails this test until it says one or the other.

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

const HP = 'system.attributes.hp.value';

/** A document of the sandbox world by its name, as the tests name them. */
function idOf(collection: string, name: string): string {
  const document = harness.world.game.collections[collection as 'actors'].find((entry) => entry.name === name);
  if (!document) throw new Error(`no ${collection} named ${name}`);
  return document.id;
}
const actor = (name: string) => `Actor.${idOf('actors', name)}`;
const courtyard = () => harness.world.game.scenes.find((scene) => scene.name === 'Keep Courtyard')!;
const tokenOf = (name: string) => {
  const token = courtyard()
    .collection('Token')
    .find((entry) => entry.name === name)!;
  return { id: token.id, uuid: token.uuid };
};
const combatId = () => harness.world.game.activeCombat()!.id;

interface Sample {
  /** Puts the world where the call can be made; not part of what is undone. */
  prepare?: () => Promise<unknown>;
  /** The call: its concrete path when the route's has parameters, and its body. */
  call: () => { path?: string; body?: Record<string, unknown> };
}

const body = (fields: Record<string, unknown>) => () => ({ body: fields });
const post = (path: string, fields: Record<string, unknown>) => harness.post(path, fields);

/** A concentration effect on Lyra, which the concentration routes need. */
async function concentrating(): Promise<void> {
  await post('/effects', {
    uuid: actor('Lyra Moonwhisper'),
    effectData: { name: 'Concentrating', statuses: ['concentrating'] },
  });
}

const SAMPLES: Record<string, Sample> = {
  'POST /effects': {
    call: () => ({ body: { uuid: actor('Goblin'), effectData: { name: 'Blessed', statuses: ['bless'] } } }),
  },
  'DELETE /effects': {
    call: () => {
      const thorin = harness.world.game.actors.get(idOf('actors', 'Thorin Ironfoot'))!;
      return { body: { uuid: thorin.uuid, effectId: thorin.collection('ActiveEffect').contents[0]!.id } };
    },
  },
  'POST /create-folder': { call: body({ name: 'Loot', folderType: 'Item' }) },
  'DELETE /delete-folder': { call: () => ({ body: { folderId: idOf('folders', 'Monsters'), deleteAll: true } }) },
  'POST /create': { call: body({ entityType: 'Item', data: { name: 'Rope', type: 'loot' } }) },
  'PUT /update': { call: () => ({ body: { uuid: actor('Goblin'), data: { name: 'Goblin Boss', [HP]: 1 } } }) },
  'DELETE /delete': { call: () => ({ body: { uuid: actor('Thorin Ironfoot') } }) },
  'POST /give': {
    call: () => ({
      body: { fromUuid: actor('Thorin Ironfoot'), toUuid: actor('Lyra Moonwhisper'), itemName: 'Battleaxe' },
    }),
  },
  'POST /remove': { call: () => ({ body: { actorUuid: actor('Pip Thistledown'), itemName: 'Potion of Healing' } }) },
  'POST /increase': { call: () => ({ body: { uuid: actor('Goblin'), attribute: HP, amount: 2 } }) },
  'POST /decrease': { call: () => ({ body: { uuid: actor('Goblin'), attribute: HP, amount: 2 } }) },
  'POST /kill': { call: () => ({ body: { uuid: tokenOf('Thorin Ironfoot').uuid } }) },
  'POST /start-encounter': { call: body({ name: 'Ambush', startWithPlayers: true, rollAll: true }) },
  'POST /next-turn': { call: () => ({ body: { encounterId: combatId() } }) },
  'POST /next-round': { call: () => ({ body: { encounterId: combatId() } }) },
  'POST /last-turn': {
    prepare: () => post('/next-round', { encounterId: combatId() }),
    call: () => ({ body: { encounterId: combatId() } }),
  },
  'POST /last-round': {
    prepare: () => post('/next-round', { encounterId: combatId() }),
    call: () => ({ body: { encounterId: combatId() } }),
  },
  'POST /end-encounter': { call: () => ({ body: { encounterId: combatId() } }) },
  'POST /add-to-encounter': {
    call: () => ({ body: { encounterId: combatId(), uuids: [tokenOf('Goblin Archer').uuid] } }),
  },
  'POST /remove-from-encounter': {
    call: () => ({ body: { encounterId: combatId(), uuids: [tokenOf('Thorin Ironfoot').uuid] } }),
  },
  'POST /canvas/{documentType}': {
    call: () => ({ path: '/canvas/walls', body: { data: [{ c: [0, 0, 100, 100] }, { c: [100, 100, 200, 100] }] } }),
  },
  'PUT /canvas/{documentType}': {
    call: () => ({ path: '/canvas/tokens', body: { documentId: tokenOf('Goblin').id, data: { x: 50, hidden: true } } }),
  },
  'DELETE /canvas/{documentType}': {
    call: () => ({ path: '/canvas/tokens', body: { documentId: tokenOf('Goblin').id } }),
  },
  'POST /move-token': { call: () => ({ body: { uuid: tokenOf('Pip Thistledown').uuid, x: 300, y: 400 } }) },
  'DELETE /chat/{messageId}': {
    call: () => ({ path: `/chat/${harness.world.game.messages.contents[0]!.id}` }),
  },
  'DELETE /chat': { call: () => ({}) },
  'POST /scene': { call: body({ data: { name: 'Sea Cave', width: 2000, height: 1500 } }) },
  'PUT /scene': {
    call: () => ({ body: { sceneId: courtyard().id, data: { name: 'Outer Courtyard', darkness: 0.5 } } }),
  },
  'DELETE /scene': { call: () => ({ body: { sceneId: courtyard().id } }) },
  'POST /switch-scene': { call: () => ({ body: { sceneId: idOf('scenes', 'Crypt of Whispers') } }) },
  'POST /dnd5e/modify-item-charges': {
    call: () => ({ body: { actorUuid: actor('Pip Thistledown'), itemName: 'Potion of Healing', amount: -1 } }),
  },
  'POST /dnd5e/use-ability': {
    call: () => ({ body: { actorUuid: actor('Thorin Ironfoot'), abilityName: 'Second Wind' } }),
  },
  'POST /dnd5e/use-feature': {
    call: () => ({ body: { actorUuid: actor('Thorin Ironfoot'), abilityName: 'Second Wind' } }),
  },
  'POST /dnd5e/use-spell': {
    // A spell with uses of its own spends one; the sandbox keeps spell slots out of it.
    prepare: () => {
      const lyra = harness.world.game.actors.get(idOf('actors', 'Lyra Moonwhisper'))!;
      const spell = lyra.collection('Item').find((item) => item.name === 'Hold Person')!;
      return harness.api(harness.key, 'PUT', '/update', { body: { uuid: spell.uuid, data: { 'system.uses.max': 2 } } });
    },
    call: () => ({ body: { actorUuid: actor('Lyra Moonwhisper'), abilityName: 'Hold Person' } }),
  },
  'POST /dnd5e/use-item': {
    call: () => ({ body: { actorUuid: actor('Pip Thistledown'), abilityName: 'Potion of Healing' } }),
  },
  'POST /dnd5e/modify-experience': { call: () => ({ body: { actorUuid: actor('Thorin Ironfoot'), amount: 450 } }) },
  'POST /dnd5e/short-rest': {
    prepare: () =>
      harness.api(harness.key, 'PUT', '/update', { body: { uuid: actor('Thorin Ironfoot'), data: { [HP]: 5 } } }),
    call: () => ({ body: { actorUuid: actor('Thorin Ironfoot'), autoHD: true } }),
  },
  'POST /dnd5e/long-rest': { call: () => ({ body: { actorUuid: actor('Thorin Ironfoot') } }) },
  'POST /dnd5e/death-save': {
    prepare: () =>
      harness.api(harness.key, 'PUT', '/update', { body: { uuid: actor('Pip Thistledown'), data: { [HP]: 0 } } }),
    call: () => ({ body: { actorUuid: actor('Pip Thistledown') } }),
  },
  'POST /dnd5e/break-concentration': {
    prepare: concentrating,
    call: () => ({ body: { actorUuid: actor('Lyra Moonwhisper') } }),
  },
  'POST /dnd5e/concentration-save': {
    prepare: concentrating,
    call: () => ({ body: { actorUuid: actor('Lyra Moonwhisper'), damage: 60 } }),
  },
  'POST /dnd5e/equip-item': {
    call: () => ({ body: { actorUuid: actor('Lyra Moonwhisper'), itemName: 'Cloak of Protection', equipped: true } }),
  },
  'POST /dnd5e/attune-item': {
    call: () => ({ body: { actorUuid: actor('Lyra Moonwhisper'), itemName: 'Cloak of Protection', attuned: true } }),
  },
  'POST /dnd5e/transfer-currency': {
    call: () => ({
      body: {
        sourceActorUuid: actor('Lyra Moonwhisper'),
        targetActorUuid: actor('Pip Thistledown'),
        currency: { gp: 5 },
      },
    }),
  },
  'POST /dnd5e/modify-currency': {
    call: () => ({ body: { actorUuid: actor('Pip Thistledown'), currency: 'gp', amount: 3 } }),
  },
  'POST /dnd5e/prepare-spell': {
    call: () => ({ body: { actorUuid: actor('Lyra Moonwhisper'), spellName: 'Hold Person', prepared: true } }),
  },
  'POST /user': { call: body({ name: 'Erin', role: 1 }) },
  'PUT /user': { call: () => ({ body: { id: idOf('users', 'Dana'), data: { role: 3, color: '#000000' } } }) },
  'DELETE /user': { call: () => ({ body: { id: idOf('users', 'Carol') } }) },
};

const writingRoutes = allRoutes.filter(
  (route): route is WorldRoute => route.kind === 'world' && route.method !== 'GET',
);
const name = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** The world as it is, but chat messages a call posted on the way (a used item's card), which an undo leaves. */
function withoutNewMessages(state: Record<string, unknown>, before: Record<string, unknown>) {
  const known = new Set((before.messages as { _id: string }[]).map((message) => message._id));
  return { ...state, messages: (state.messages as { _id: string }[]).filter((message) => known.has(message._id)) };
}

describe('Every writing route is journaled with an undo that works, or says why it cannot be undone', () => {
  it('every world route that is not a GET declares its changes, and only those routes do', () => {
    expect(writingRoutes.filter((route) => !route.changes).map(name)).toEqual([]);
    const reads = allRoutes.filter((route) => route.kind === 'world' && route.method === 'GET' && route.changes);
    expect(reads.map(name)).toEqual([]);
  });

  it('a route that cannot be undone says why, in words a GM can act on', () => {
    for (const route of writingRoutes) {
      if (isUndoable(route.changes!)) continue;
      expect(route.changes!.notUndoable.length, name(route)).toBeGreaterThan(40);
    }
  });

  it('every undoable route has a sample call here', () => {
    const undoable = writingRoutes.filter((route) => isUndoable(route.changes!)).map(name);
    expect(undoable.filter((route) => !SAMPLES[route])).toEqual([]);
    expect(Object.keys(SAMPLES).filter((route) => !undoable.includes(route))).toEqual([]);
  });

  for (const route of writingRoutes.filter((entry) => isUndoable(entry.changes!))) {
    it(`${name(route)}: the call is journaled, and its undo leaves the world as it was`, async () => {
      const sample = SAMPLES[name(route)]!;
      await sample.prepare?.();
      const { path = route.path, body: fields } = sample.call();
      const before = worldState(harness);
      const started = new Date().toISOString();
      const answer = await harness.api(harness.key, route.method, path, { body: fields });
      expect(answer.status, answer.text).toBe(200);
      const change = await settledChange(
        harness,
        (entry) => entry.method === route.method && entry.path === route.path && entry.at >= started,
      );
      expect(change.state).toBe('done');
      expect(change.changes.length).toBeGreaterThan(0);
      expect(worldState(harness)).not.toEqual(before);
      const undo = await harness.admin('POST', `/admin/changes/${change.id}/undo`, {});
      expect(undo.status, undo.text).toBe(200);
      expect(withoutNewMessages(worldState(harness), before)).toEqual(before);
    });
  }
});
