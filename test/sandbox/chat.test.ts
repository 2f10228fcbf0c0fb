import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox } from './helpers.ts';

describe('chat-messages', () => {
  it('pages the log newest first with the serialized message shape', async () => {
    let now = 1000;
    const world = sandbox({ now: () => now++ });
    const reply = await ask(world, 'chat-messages', { limit: 1 });
    expect(reply.success).toBe(true);
    expect(reply.data).toMatchObject({ total: 2, offset: 0, limit: 1 });
    expect(Object.keys(reply.data.messages[0])).toEqual([
      'id',
      'uuid',
      'content',
      'speaker',
      'timestamp',
      'whisper',
      'type',
      'author',
      'flavor',
      'isRoll',
      'rolls',
      'flags',
    ]);
    expect(reply.data.messages[0]).toMatchObject({ isRoll: true, flavor: 'Perception', author: { name: 'Bob' } });
    expect((await ask(world, 'chat-messages', { offset: 1 })).data.messages[0].content).toBe(
      'Thorin checks the gate for tracks.',
    );
    expect((await ask(world, 'chat-messages')).data.limit).toBe(50);
    expect((await ask(world, 'chat-messages', { speaker: 'Lyra Moonwhisper' })).data.total).toBe(1);
  });

  it('hides whispers from users who are neither author, recipient nor GM', async () => {
    const world = sandbox();
    const bob = named(world, 'users', 'Bob');
    await ask(world, 'chat-send', { content: 'psst', whisper: [bob.id] });
    expect((await ask(world, 'chat-messages', { userId: 'Alice' })).data.total).toBe(2);
    expect((await ask(world, 'chat-messages', { userId: 'Bob' })).data.total).toBe(3);
    expect((await ask(world, 'chat-messages', { userId: 'Gamemaster' })).data.total).toBe(3);
  });
});

describe('chat-send, chat-delete, chat-flush', () => {
  it('posts as the user with an actor speaker and an alias, firing the chat-event create', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('chat-events', true);
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const alice = named(world, 'users', 'Alice');
    const reply = await ask(world, 'chat-send', {
      content: 'For the hold!',
      speaker: thorin.uuid,
      alias: 'Thorin',
      flavor: 'Battle cry',
      userId: 'Alice',
    });
    expect(reply.success).toBe(true);
    expect(reply.data).toMatchObject({
      content: 'For the hold!',
      flavor: 'Battle cry',
      author: { id: alice.id, name: 'Alice' },
      speaker: { actor: thorin.id, alias: 'Thorin' },
    });
    expect(pushes).toEqual([{ type: 'chat-event', data: { eventType: 'create', data: reply.data } }]);
  });

  it('lets the author or a GM delete a message and pushes the delete', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('chat-events', true);
    const [first] = world.game.messages.contents;
    expect((await ask(world, 'chat-delete', { messageId: first!.id, userId: 'Bob' })).error).toBe(
      "User 'Bob' does not have permission to delete this message",
    );
    const deleted = await ask(world, 'chat-delete', { messageId: first!.id, userId: 'Alice' });
    expect(deleted).toEqual({
      type: 'chat-delete-result',
      requestId: deleted.requestId,
      success: true,
      data: { messageId: first!.id },
    });
    expect(pushes).toEqual([{ type: 'chat-event', data: { eventType: 'delete', data: { id: first!.id } } }]);
    expect(await ask(world, 'chat-delete', { messageId: first!.id })).toMatchObject({
      success: false,
      error: `Chat message not found: ${first!.id}`,
    });
  });

  it('flushes the whole log for a GM only', async () => {
    const world = sandbox();
    expect((await ask(world, 'chat-flush', { userId: 'Carol' })).error).toBe(
      "User 'Carol' must be a GM to flush chat messages",
    );
    const reply = await ask(world, 'chat-flush');
    expect(reply.data).toEqual({ message: 'All chat messages have been deleted' });
    expect(world.game.messages.size).toBe(0);
  });
});
