import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe('Chat', () => {
  it('posts a message, pages the log, deletes one message and flushes the rest', async () => {
    const sent = await harness.post('/chat', { content: 'The gate creaks open.', alias: 'Narrator' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ type: 'chat-send-result', success: true });
    const messageId = sent.body.data.id;
    const page = await harness.get('/chat', { limit: 5 });
    expect(page.body.data).toMatchObject({ limit: 5, offset: 0 });
    expect(page.body.data.messages.some((message: { id: string }) => message.id === messageId)).toBe(true);
    const deleted = await harness.del(`/chat/${messageId}`);
    expect(deleted.body).toMatchObject({ type: 'chat-delete-result', success: true });
    const flushed = await harness.del('/chat');
    expect(flushed.body).toMatchObject({ type: 'chat-flush-result', success: true });
    expect((await harness.get('/chat')).body.data.total).toBe(0);
  });

  it('needs content, and a player may not flush the log', async () => {
    expect((await harness.post('/chat', {})).body).toEqual({ error: "'content' is required" });
    const player = await harness.api(harness.key, 'DELETE', '/chat', { query: { userId: 'Alice' } });
    expect(player.status).toBe(400);
  });

  it('/chat/subscribe streams chat-create, chat-delete, and applies whisperOnly', async () => {
    const all = await harness.stream('/chat/subscribe');
    const whispers = await harness.stream('/chat/subscribe', { whisperOnly: 'true' });
    const sent = await harness.post('/chat', { content: 'Hello table' });
    const created = await all.next('chat-create');
    expect(created.data).toMatchObject({
      type: 'chat-event',
      data: { eventType: 'create', data: { id: sent.body.data.id, content: 'Hello table' } },
    });
    await harness.del(`/chat/${sent.body.data.id}`);
    expect((await all.next('chat-delete')).data).toEqual({
      type: 'chat-event',
      data: { eventType: 'delete', data: { id: sent.body.data.id } },
    });
    expect(whispers.named('chat-create')).toEqual([]);
    all.close();
    whispers.close();
  });
});

describe('Macro', () => {
  it('lists macros, and the world refuses to run one unless it allows macro execution', async () => {
    const listed = await harness.get('/macros');
    expect(listed.status).toBe(200);
    const macro = listed.body.macros.find((entry: { name: string }) => entry.name === 'Goblin Ambush');
    expect(macro.uuid).toMatch(/^Macro\./);
    const run = await harness.post(`/macro/${macro.uuid}/execute`, { args: { loud: true } });
    expect(run.status).toBe(400);
    expect(run.body.success).toBe(false);
  });
});

describe('User', () => {
  it('lists, gets, creates, updates and deletes users', async () => {
    const users = await harness.get('/users');
    expect(users.body.data.map((user: { name: string }) => user.name)).toContain('Alice');
    expect((await harness.get('/user', { name: 'Alice' })).body.data.name).toBe('Alice');
    const created = await harness.post('/user', { name: 'Eve', role: 1 });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'Eve', role: 1 });
    expect(
      (await harness.api(harness.key, 'PUT', '/user', { body: { name: 'Eve', data: { color: '#123456' } } })).status,
    ).toBe(200);
    expect((await harness.del('/user', undefined, { name: 'Eve' })).body).toMatchObject({
      type: 'delete-user-result',
      success: true,
    });
    expect((await harness.get('/user', { name: 'Eve' })).status).toBe(400);
  });

  it('checks the role and needs id or name; players may not manage users', async () => {
    expect((await harness.post('/user', { name: 'X', role: 9 })).body).toEqual({
      error: "'role' must be between 0 and 4",
    });
    expect((await harness.get('/user')).body).toEqual({ error: "Either 'id' or 'name' is required" });
    expect((await harness.get('/users', { userId: 'Bob' })).status).toBe(400);
  });
});
