import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox, tokenNamed } from './helpers.ts';

describe('entity', () => {
  it('returns a document by uuid, and "Entity not found" with data null otherwise', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const reply = await ask(world, 'entity', { uuid: thorin.uuid });
    expect(reply.uuid).toBe(thorin.uuid);
    expect(reply.data).toMatchObject({
      _id: thorin.id,
      name: 'Thorin Ironfoot',
      system: { attributes: { hp: { value: 34 } } },
    });
    const missing = await ask(world, 'entity', { uuid: 'Actor.nothing000000000' });
    expect(missing).toEqual({
      type: 'entity-result',
      requestId: missing.requestId,
      uuid: 'Actor.nothing000000000',
      error: 'Entity not found',
      data: null,
    });
  });

  it('filters by the user: full data for observers, a stub for LIMITED, refusal without permission', async () => {
    const world = sandbox();
    const lyra = named(world, 'actors', 'Lyra Moonwhisper');
    expect((await ask(world, 'entity', { uuid: lyra.uuid, userId: 'Bob' })).data.system).toBeDefined();
    expect((await ask(world, 'entity', { uuid: lyra.uuid, userId: 'Carol' })).data).toEqual({
      uuid: lyra.uuid,
      name: 'Lyra Moonwhisper',
      type: 'Actor',
      img: lyra.img,
    });
    expect((await ask(world, 'entity', { uuid: lyra.uuid, userId: 'Alice' })).error).toBe(
      "User 'Alice' does not have permission to view 'Lyra Moonwhisper'",
    );
    expect(await ask(world, 'entity', { uuid: lyra.uuid, userId: 'nobody' })).toMatchObject({
      error: 'User not found: nobody',
      data: null,
    });
  });

  it('returns the controlled tokens, or their actors, as an array when selected', async () => {
    const world = sandbox();
    await ask(world, 'select', { name: 'Goblin Archer' });
    const token = tokenNamed(world, 'Keep Courtyard', 'Goblin Archer');
    expect((await ask(world, 'entity', { selected: true })).data.map((d: { _id: string }) => d._id)).toEqual([
      token.id,
    ]);
    const actors = await ask(world, 'entity', { selected: true, actor: true });
    expect(actors.data[0].name).toBe('Goblin Archer');
    expect(actors.uuid).toBe(`${token.uuid}.Actor.${named(world, 'actors', 'Goblin Archer').id}`);
  });
});

describe('create, update, delete', () => {
  it('creates a document in a folder and fires createActor', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('hooks', true);
    const folder = named(world, 'folders', 'Monsters');
    const reply = await ask(world, 'create', {
      entityType: 'Actor',
      data: { name: 'Owlbear', type: 'npc' },
      folder: folder.id,
    });
    expect(reply.uuid).toMatch(/^Actor\.[A-Za-z0-9]{16}$/);
    expect(reply.entity).toMatchObject({ name: 'Owlbear', type: 'npc', folder: folder.id });
    expect(world.find(reply.uuid)?.name).toBe('Owlbear');
    expect(pushes.map((p) => (p.data as { hook: string }).hook)).toEqual(['createActor']);
  });

  it('reports invalid types, schema errors and missing permissions with the failure message', async () => {
    const world = sandbox();
    const invalid = await ask(world, 'create', { entityType: 'Spaceship', data: { name: 'x' } });
    expect(invalid).toEqual({
      type: 'create-result',
      requestId: invalid.requestId,
      message: 'Failed to create entity',
      error: 'Invalid entity type: Spaceship',
    });
    expect((await ask(world, 'create', { entityType: 'Item', data: {} })).error).toBe(
      'Item validation errors:\n  name: may not be undefined',
    );
    expect((await ask(world, 'create', { entityType: 'Actor', data: { name: 'x' }, userId: 'Alice' })).error).toBe(
      "User 'Alice' does not have permission to create Actor",
    );
    expect(
      (await ask(world, 'create', { entityType: 'JournalEntry', data: { name: 'Notes' }, userId: 'Dana' })).error,
    ).toBeUndefined();
  });

  it('guards macro writes behind allowMacroWrite and the macro:write scope', async () => {
    const closed = await ask(sandbox(), 'create', { entityType: 'Macro', data: { name: 'M', command: 'return 1' } });
    expect(closed.error).toBe(
      'Macro writes are disabled in REST API module settings. A GM must enable allowMacroWrite.',
    );
    const world = sandbox({ settings: { allowMacroWrite: true } });
    const scoped = await ask(world, 'create', { entityType: 'Macro', data: { name: 'M' }, _scopes: ['entity:write'] });
    expect(scoped.error).toBe("The API key lacks the 'macro:write' scope required to change macros");
    const created = await ask(world, 'create', {
      entityType: 'Macro',
      data: { name: 'M', command: 'return 1' },
      _scopes: ['entity:write', 'macro:write'],
    });
    expect(created.entity).toMatchObject({ name: 'M', type: 'script', author: world.game.moduleUserId });
  });

  it('updates with dotted keys, pushing updateActor and an actor-event update', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('hooks', true);
    world.setChannel('actor-events', true);
    const pip = named(world, 'actors', 'Pip Thistledown');
    const reply = await ask(world, 'update', { uuid: pip.uuid, data: { 'system.attributes.hp.value': 5 } });
    expect(reply.uuid).toBe(pip.uuid);
    expect(reply.entity[0].system.attributes.hp.value).toBe(5);
    const changes = { system: { attributes: { hp: { value: 5 } } }, _id: pip.id };
    expect((pushes[0]!.data as any).hook).toBe('updateActor');
    expect((pushes[0]!.data as any).args[1]).toEqual(changes);
    expect(pushes[1]).toEqual({ type: 'actor-event', data: { actorUuid: pip.uuid, eventType: 'update', changes } });
  });

  it('refuses updates and deletes without ownership; deleting an unknown uuid is a no-op', async () => {
    const world = sandbox();
    const pip = named(world, 'actors', 'Pip Thistledown');
    const refused = await ask(world, 'update', { uuid: pip.uuid, data: { name: 'X' }, userId: 'Alice' });
    expect(refused).toEqual({
      type: 'update-result',
      requestId: refused.requestId,
      uuid: pip.uuid,
      message: 'Failed to update entity',
      error: "User 'Alice' does not have permission to update 'Pip Thistledown'",
    });
    expect(
      (await ask(world, 'update', { uuid: pip.uuid, data: { name: 'Pip the Bold' }, userId: 'Carol' })).entity[0].name,
    ).toBe('Pip the Bold');
    const gone = await ask(world, 'delete', { uuid: 'Actor.nothing000000000' });
    expect(gone).toEqual({
      type: 'delete-result',
      requestId: gone.requestId,
      uuid: 'Actor.nothing000000000',
      success: true,
    });
    expect((await ask(world, 'delete', { uuid: pip.uuid, userId: 'Bob' })).error).toBe(
      "User 'Bob' does not have permission to delete 'Pip the Bold'",
    );
    const deleted = await ask(world, 'delete', { uuid: pip.uuid });
    expect(deleted).toEqual({ type: 'delete-result', requestId: deleted.requestId, uuid: pip.uuid, success: true });
    expect(world.find(pip.uuid)).toBeNull();
  });
});

describe('increase, decrease, kill', () => {
  it('changes a numeric attribute and reports old and new values', async () => {
    const world = sandbox();
    const goblin = named(world, 'actors', 'Goblin');
    const up = await ask(world, 'increase', { uuid: goblin.uuid, attribute: 'system.attributes.hp.value', amount: 3 });
    expect(up).toMatchObject({
      success: true,
      results: [{ uuid: goblin.uuid, attribute: 'system.attributes.hp.value', oldValue: 7, newValue: 10 }],
    });
    const down = await ask(world, 'decrease', {
      uuid: goblin.uuid,
      attribute: 'system.attributes.hp.value',
      amount: 4,
    });
    expect(down.results[0]).toMatchObject({ oldValue: 10, newValue: 6 });
    expect(await ask(world, 'decrease', { uuid: goblin.uuid, attribute: 'name', amount: 1 })).toMatchObject({
      success: false,
      error: 'Attribute name is not a number, found: string',
    });
    expect(
      (await ask(world, 'increase', { uuid: goblin.uuid, attribute: 'system.attributes.hp.value', amount: '3' })).error,
    ).toBe('Amount must be a number');
    expect((await ask(world, 'increase', { attribute: 'x', amount: 1 })).error).toBe('UUID or selected is required');
  });

  it('kills a token: combatant defeated, HP 0, dead status on its actor', async () => {
    const world = sandbox();
    const token = tokenNamed(world, 'Keep Courtyard', 'Goblin Archer');
    const reply = await ask(world, 'kill', { uuid: token.uuid });
    expect(reply.results).toEqual([
      { uuid: token.uuid, success: true, message: 'Token marked as defeated, HP set to 0, and dead effect applied' },
    ]);
    const actor = world.game.tokenActor(token)!;
    expect(actor.system.attributes).toMatchObject({ hp: { value: 0 } });
    expect(
      actor.collection('ActiveEffect').contents.some((e) => (e.source.statuses as string[]).includes('dead')),
    ).toBe(true);
    const combatant = world.game
      .activeCombat()!
      .collection('Combatant')
      .find((c) => c.source.tokenId === token.id)!;
    expect(combatant.source.defeated).toBe(true);
    expect((await ask(world, 'kill', { uuid: named(world, 'scenes', 'Keep Courtyard').uuid })).error).toBe(
      'Cannot mark entity type Scene as defeated',
    );
    expect((await ask(world, 'kill', {})).error).toBe('No entities found to mark as defeated');
  });
});

describe('give and remove', () => {
  it('moves an item between actors and stacks quantities', async () => {
    const world = sandbox();
    const pip = named(world, 'actors', 'Pip Thistledown');
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const reply = await ask(world, 'give', {
      fromUuid: pip.uuid,
      toUuid: thorin.uuid,
      itemName: 'potion of healing',
      quantity: 1,
    });
    expect(reply).toMatchObject({ fromUuid: pip.uuid, toUuid: thorin.uuid, quantity: 1, success: true });
    expect(pip.collection('Item').getName('Potion of Healing')!.system.quantity).toBe(1);
    expect(thorin.collection('Item').get(reply.newItemId)!.system.quantity).toBe(1);
    const again = await ask(world, 'give', { fromUuid: pip.uuid, toUuid: thorin.uuid, itemName: 'Potion of Healing' });
    expect(again).toMatchObject({ newItemId: reply.newItemId, quantity: 2 });
    expect(pip.collection('Item').getName('Potion of Healing')).toBeUndefined();
  });

  it('reports give errors with the request echoed, and removes items or part of a stack', async () => {
    const world = sandbox();
    const pip = named(world, 'actors', 'Pip Thistledown');
    const failed = await ask(world, 'give', { toUuid: pip.uuid, itemName: 'Nothing' });
    expect(failed).toEqual({
      type: 'give-result',
      requestId: failed.requestId,
      selected: undefined,
      fromUuid: '',
      toUuid: pip.uuid,
      quantity: undefined,
      itemUuid: '',
      success: false,
      error: 'Item not found: Nothing',
    });
    expect((await ask(world, 'give', { toUuid: pip.uuid, itemName: 'Dagger', userId: 'Alice' })).error).toBe(
      "User 'Alice' does not have permission to give items to 'Pip Thistledown'",
    );
    const dagger = pip.collection('Item').getName('Dagger')!;
    expect(await ask(world, 'remove', { actorUuid: pip.uuid, itemName: 'dagger', quantity: 1 })).toMatchObject({
      actorUuid: pip.uuid,
      itemUuid: dagger.uuid,
      quantity: 1,
      success: true,
    });
    expect((await ask(world, 'remove', { actorUuid: pip.uuid, itemUuid: dagger.uuid })).quantity).toBe(0);
    expect(pip.collection('Item').get(dagger.id)).toBeUndefined();
    expect(await ask(world, 'remove', { actorUuid: pip.uuid })).toMatchObject({
      success: false,
      error: 'Item UUID or Item Name is required',
    });
  });
});
