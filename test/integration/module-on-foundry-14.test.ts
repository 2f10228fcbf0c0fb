// Issue 27, item 4: the unmodified module 3.4.1 on a Foundry 14 world, where Foundry changed under it, as the per-route
// table of docs/COMPATIBILITY.md says, checked on a 13 and a 14 world (the vitest projects foundry-13 and foundry-14).
// Each case is cited there: a numeric chatType is a document subtype to Foundry 14 (refused), effect changes live in
// system.changes (where the module does not look), a whispered roll follows the GM's message mode on both, and a
// scene update's background lands on the scene's first level on 14.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ON_FOUNDRY_14, startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe(`the module 3.4.1 on Foundry ${ON_FOUNDRY_14 ? '14' : '13'}`, () => {
  it('POST /chat with a numeric chatType: a style on 13, refused on 14 with words that say to leave it out', async () => {
    const sent = await harness.post('/chat', { content: 'Out of character', chatType: 1 });
    if (!ON_FOUNDRY_14) {
      expect(sent.status).toBe(200);
      const message = await harness.get('/get', { uuid: sent.body.data.uuid });
      expect(message.body.data).toMatchObject({ type: 'base', style: 1 });
      return;
    }
    expect(sent.status).toBe(400);
    expect(sent.body.error).toBe(
      'On Foundry 14 the foundry-rest-api module 3.4.1 sends chatType as the message\'s document type, which Foundry 14 refuses: leave chatType out (the world answered: ChatMessage validation errors:\n  type: "1" is not a valid type for the ChatMessage Document class)',
    );
    const plain = await harness.post('/chat', { content: 'Out of character' });
    expect(plain.status).toBe(200);
  });

  it("an effect's changes: listed by GET /effects on 13; on 14 kept in system.changes, which the module does not read", async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const effectData = {
      name: 'Shield of Faith',
      changes: [{ key: 'system.attributes.ac.bonus', mode: 2, value: '2' }],
    };
    const added = await harness.post('/effects', { uuid: thorin, effectData });
    expect(added.status).toBe(200);
    const effectId = added.body.data.effect.id;
    const listed = (await harness.get('/effects', { uuid: thorin })).body.data.effects.find(
      (effect: { id: string }) => effect.id === effectId,
    );
    const stored = (await harness.get('/get', { uuid: thorin })).body.data.effects.find(
      (effect: { _id: string }) => effect._id === effectId,
    );
    if (!ON_FOUNDRY_14) {
      expect(listed.changes).toEqual([{ key: 'system.attributes.ac.bonus', mode: 2, value: '2' }]);
      expect(stored.changes).toEqual(listed.changes);
      return;
    }
    expect(listed.changes).toEqual([]);
    expect(stored).not.toHaveProperty('changes');
    expect(stored.system.changes).toEqual([
      { key: 'system.attributes.ac.bonus', type: 'add', value: '2', phase: 'initial', priority: 20 },
    ]);
  });

  it('PUT /update of a scene with background: on the scene on 13, on its first level on 14', async () => {
    const scene = (await harness.get('/scene', { active: true })).body.data;
    const updated = await harness.api(harness.key, 'PUT', '/update', {
      body: { uuid: `Scene.${scene._id}`, data: { background: { src: 'maps/storm.webp' }, navName: 'Stormy' } },
    });
    expect(updated.status).toBe(200);
    const after = (await harness.get('/scene', { sceneId: scene._id })).body.data;
    expect(after.navName).toBe('Stormy');
    if (!ON_FOUNDRY_14) {
      expect(after.background.src).toBe('maps/storm.webp');
      return;
    }
    expect(after).not.toHaveProperty('background');
    expect(after.levels).toHaveLength(1);
    expect(after.levels[0]).toMatchObject({ _id: scene.levels[0]._id, background: { src: 'maps/storm.webp' } });
  });

  it('POST /roll with whisper: the module puts rollMode where Foundry does not read it, so the roll is public on both', async () => {
    const gm = (await harness.get('/players')).body.users.find((user: { name: string }) => user.name === 'Gamemaster');
    const rolled = await harness.post('/roll', { formula: '1d20', createChatMessage: true, whisper: [gm.id] });
    expect(rolled.status).toBe(200);
    const [message] = (await harness.get('/chat', { limit: 1 })).body.data.messages;
    expect(message).toMatchObject({ isRoll: true, whisper: [] });
    const stored = (await harness.get('/get', { uuid: message.uuid })).body.data;
    if (ON_FOUNDRY_14) expect(stored.messageMode).toBe('public');
    else expect(stored).not.toHaveProperty('messageMode');
  });
});
