import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox } from './helpers.ts';

describe('user operations', () => {
  it('lists and gets users with their character, GM-only', async () => {
    const world = sandbox();
    const { data } = await ask(world, 'get-users');
    expect(data).toHaveLength(6);
    const alice = data.find((user: { name: string }) => user.name === 'Alice');
    expect(alice).toEqual({
      id: named(world, 'users', 'Alice').id,
      name: 'Alice',
      role: 1,
      isGM: false,
      active: true,
      color: '#2980b9',
      avatar: 'icons/avatars/alice.webp',
      character: named(world, 'actors', 'Thorin Ironfoot').id,
    });
    expect(await ask(world, 'get-users', { userId: 'Alice' })).toMatchObject({
      error: "User 'Alice' must be a GM to list users",
      data: null,
    });
    expect((await ask(world, 'get-user', { name: 'alice' })).data).toEqual(alice);
    const missing = await ask(world, 'get-user', { id: 'nope' });
    expect(missing).toEqual({
      type: 'get-user-result',
      requestId: missing.requestId,
      error: 'User not found',
      data: null,
    });
  });

  it('creates, updates and deletes users, re-announcing the player list', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    const pip = named(world, 'actors', 'Pip Thistledown');
    const created = await ask(world, 'create-user', { name: 'Erin', password: 'secret', character: pip.uuid });
    expect(created.data).toMatchObject({ name: 'Erin', role: 1, isGM: false, character: pip.id });
    expect(JSON.stringify(world.game.users.get(created.data.id)!.toObject())).not.toContain('secret');
    const updated = await ask(world, 'update-user', { id: created.data.id, data: { role: 2, color: '#ffffff' } });
    expect(updated.data).toMatchObject({ role: 2, color: '#ffffff' });
    expect(await ask(world, 'delete-user', { name: 'Erin' })).toMatchObject({ success: true });
    expect(pushes.map((p) => p.type)).toEqual(['player-list', 'player-list', 'player-list']);
    expect((await ask(world, 'create-user', {})).error).toBe('User name is required');
    expect((await ask(world, 'create-user', { name: 'X', userId: 'Assistant GM' })).data.name).toBe('X');
  });

  it('protects the last GM and the module user', async () => {
    const world = sandbox();
    expect((await ask(world, 'update-user', { name: 'Gamemaster', data: { role: 1 } })).error).toBe(
      'Cannot demote the last GM user',
    );
    expect((await ask(world, 'delete-user', { name: 'Gamemaster' })).error).toBe(
      'Cannot delete the currently active GM user',
    );
    expect(await ask(world, 'delete-user', { name: 'Nobody' })).toMatchObject({
      success: false,
      error: 'User not found',
    });
    expect((await ask(world, 'delete-user', { name: 'Dana', userId: 'Dana' })).error).toBe(
      "User 'Dana' must be a GM to delete users",
    );
  });
});
