// Issue 17, item 7: a sandbox world that imitates Foundry 14 (14.366) with the module 3.4.1 answers through the relay
// as that world does: scenes keep their background on Levels, CONFIG.statusEffects is keyed by id, measured templates
// are gone, effect changes are typed in system.changes and chat messages carry a messageMode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld({ foundryVersion: '14.366' });
});
afterAll(() => harness.close());

describe('a Foundry 14 world', () => {
  it('is listed on /clients with its version', async () => {
    const answer = await harness.get('/clients');
    expect(answer.body.clients[0]).toMatchObject({ clientId: harness.clientId, foundryVersion: '14.366' });
  });

  it('keeps each scene background on its first level, and PUT /scene background lands there', async () => {
    const active = await harness.get('/scene', { active: true });
    const scene = active.body.data;
    expect(scene).not.toHaveProperty('background');
    expect(scene).not.toHaveProperty('templates');
    expect(scene.levels).toHaveLength(1);
    expect(scene.levels[0].background.src).toBe('maps/keep-courtyard.webp');

    const changes = { sceneId: scene._id, data: { background: { src: 'maps/night.webp' } } };
    const updated = await harness.api(harness.key, 'PUT', '/scene', { body: changes });
    expect(updated.status).toBe(200);
    const after = await harness.get('/scene', { sceneId: scene._id });
    expect(after.body.data).not.toHaveProperty('background');
    expect(after.body.data.levels[0].background.src).toBe('maps/night.webp');
    expect(after.body.data.levels[0]._id).toBe(scene.levels[0]._id);
  });

  it('has no measured templates: /canvas/templates is a 400 naming the valid types, and regions answer', async () => {
    const templates = await harness.get('/canvas/templates');
    expect(templates.status).toBe(400);
    expect(templates.body.error).toBe(
      "Invalid documentType 'templates'. Must be one of: tokens, tiles, drawings, lights, sounds, notes, walls, regions",
    );
    const regions = await harness.get('/canvas/regions');
    expect(regions.status).toBe(200);
  });

  it('fails the status-effect listing as module 3.4.1 does there, said as a 501, while /kill still works', async () => {
    const list = await harness.get('/effects/list');
    expect(list.status).toBe(501);
    expect(list.body.error).toMatch(/\(the world answered: CONFIG\.statusEffects\.map is not a function\)$/);
    const goblin = await uuidOf(harness, 'Goblin');
    const killed = await harness.post('/kill', { uuid: goblin });
    expect(killed.status).toBe(200);
    expect(killed.body.results).toEqual([expect.objectContaining({ uuid: goblin, success: true })]);
    const actor = await harness.get('/get', { uuid: goblin });
    expect(actor.body.data.system.attributes.hp.value).toBe(0);
    // The module applies the dead status with TokenDocument#toggleActiveEffect, which Foundry 14 removed: it logs the
    // error and goes on, so the creature has no dead effect.
    expect(actor.body.data.effects.flatMap((effect: { statuses: string[] }) => effect.statuses)).not.toContain('dead');
  });

  it("declares the relay's words for the module's failures in the OpenAPI document", async () => {
    const document = (await harness.api(undefined, 'GET', '/openapi.json')).body;
    expect(document.paths['/effects/list'].get.responses['501'].description).toMatch(
      /^On Foundry 14, CONFIG\.statusEffects is an object/,
    );
    expect(document.paths['/chat'].post.responses['400'].description).toMatch(/leave chatType out$/);
  });

  it("keeps effect changes typed in system.changes, where the module's listing does not look", async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const effectData = {
      name: 'Shield of Faith',
      changes: [{ key: 'system.attributes.ac.bonus', mode: 2, value: '2' }],
    };
    const added = await harness.post('/effects', { uuid: thorin, effectData });
    expect(added.status).toBe(200);
    const listed = await harness.get('/effects', { uuid: thorin });
    const effect = listed.body.data.effects.find((each: { id: string }) => each.id === added.body.data.effect.id);
    expect(effect.changes).toEqual([]);
    const actor = await harness.get('/get', { uuid: thorin });
    const stored = actor.body.data.effects.find((each: { _id: string }) => each._id === added.body.data.effect.id);
    expect(stored.system.changes).toEqual([
      { key: 'system.attributes.ac.bonus', type: 'add', value: '2', phase: 'initial', priority: 20 },
    ]);
  });

  it('gives chat messages a messageMode', async () => {
    const sent = await harness.post('/chat', { content: 'Hello from Foundry 14' });
    expect(sent.status).toBe(200);
    const message = await harness.get('/get', { uuid: sent.body.data.uuid });
    expect(message.body.data.messageMode).toBe('public');
  });
});
