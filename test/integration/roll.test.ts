import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

const ROLL_RECORD_KEYS = [
  'dice',
  'flavor',
  'formula',
  'id',
  'isCritical',
  'isFumble',
  'messageId',
  'rollTotal',
  'speaker',
  'timestamp',
  'user',
];

describe('Roll', () => {
  it('POST /roll evaluates a formula: success true and the roll execution result', async () => {
    const answer = await harness.post('/roll', { formula: '4d6kh3', flavor: 'Strength' });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('roll-result');
    expect(answer.body.requestId).toMatch(/^roll_\d{13}$/);
    expect(answer.body.success).toBe(true);
    const { data } = answer.body;
    expect(Object.keys(data).sort()).toEqual(['chatMessageCreated', 'id', 'roll']);
    expect(data.chatMessageCreated).toBe(false);
    expect(data.roll.formula).toBe('4d6kh3');
    const [dice] = data.roll.dice;
    expect(dice.faces).toBe(6);
    expect(dice.results).toHaveLength(4);
    expect(dice.results.filter((result: { active: boolean }) => !result.active)).toHaveLength(1);
    const kept = dice.results
      .filter((result: { active: boolean }) => result.active)
      .map((result: { result: number }) => result.result);
    expect(data.roll.total).toBe(kept.reduce((sum: number, value: number) => sum + value, 0));
    expect(typeof data.roll.isCritical).toBe('boolean');
    expect(typeof data.roll.timestamp).toBe('number');
  });

  it('POST /roll reads its parameters from the body only, and needs formula', async () => {
    const answer = await harness.post('/roll', {}, { formula: '1d20' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: "'formula' is required" });
  });

  it("POST /roll with a broken formula is a 400 with the world's message", async () => {
    const answer = await harness.post('/roll', { formula: '1d20+' });
    expect(answer.status).toBe(400);
    expect(answer.body.success).toBe(false);
    expect(answer.body.error).toMatch(/^Failed to roll formula/);
  });

  it('POST /roll rejects a whisper that is not a list of user ids', async () => {
    const answer = await harness.post('/roll', { formula: '1d20', whisper: [1, 2] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^'whisper\.0' must hold only strings/);
  });

  it('GET /rolls lists recent rolls as roll records, most recent first, and GET /lastroll gives the latest', async () => {
    for (const formula of ['1d4', '1d6', '1d8']) await harness.post('/roll', { formula, createChatMessage: true });
    const rolls = await harness.get('/rolls');
    expect(rolls.status).toBe(200);
    expect(rolls.body.type).toBe('rolls-result');
    expect(rolls.body.data.slice(0, 3).map((roll: { formula: string }) => roll.formula)).toEqual(['1d8', '1d6', '1d4']);
    for (const roll of rolls.body.data) expect(Object.keys(roll).sort()).toEqual(ROLL_RECORD_KEYS);
    const last = await harness.get('/lastroll');
    expect(last.body.type).toBe('last-roll-result');
    expect(last.body.data).toEqual(rolls.body.data[0]);
  });

  it('GET /rolls returns at most 20 and honours limit', async () => {
    for (let index = 0; index < 22; index += 1) await harness.post('/roll', { formula: '1d20' });
    const all = await harness.get('/rolls');
    expect(all.body.data).toHaveLength(20);
    const three = await harness.get('/rolls', { limit: 3 });
    expect(three.body.data).toHaveLength(3);
    expect(three.body.data).toEqual(all.body.data.slice(0, 3));
  });

  it.each([
    [0, "'limit' must be between 1 and 20"],
    [21, "'limit' must be between 1 and 20"],
    ['many', "'limit' must be a number"],
    [2.5, "'limit' must be a whole number"],
  ])('GET /rolls?limit=%s is a 400: %s', async (limit, error) => {
    const answer = await harness.get('/rolls', { limit });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error });
  });

  it('a roll made through POST /roll appears on /rolls/subscribe as a roll record', async () => {
    const stream = await harness.stream('/rolls/subscribe');
    expect(stream.headers?.get('content-type')).toBe('text/event-stream');
    expect(stream.events[0]).toEqual({ name: 'connected', data: { clientId: harness.clientId } });
    const made = await harness.post('/roll', { formula: '2d20kh1', createChatMessage: true });
    const event = await stream.next('roll', {
      where: ({ data: roll }) => roll.id === made.body.data.id || roll.rollTotal === made.body.data.roll.total,
    });
    expect(event.data.type).toBe('roll-data');
    expect(Object.keys(event.data.data).sort()).toEqual(ROLL_RECORD_KEYS);
    expect(event.data.data.formula).toBe('2d20kh1');
    expect(event.data.data.rollTotal).toBe(made.body.data.roll.total);
    stream.close();
  });

  it('a roll posted to chat has one id: in the POST /roll answer, the roll event, /lastroll and /rolls (listed once)', async () => {
    const stream = await harness.stream('/rolls/subscribe');
    const made = await harness.post('/roll', { formula: '3d6', flavor: 'One id', createChatMessage: true });
    const event = await stream.next('roll', { where: ({ data: roll }) => roll.flavor === 'One id' });
    const messageId = event.data.data.id;
    expect(harness.world.game.messages.get(messageId)).toBeDefined();
    expect(made.body.data).toMatchObject({ id: messageId, messageId, chatMessageCreated: true });
    const last = await harness.get('/lastroll');
    expect(last.body.data).toMatchObject({
      id: messageId,
      messageId,
      flavor: 'One id',
      rollTotal: made.body.data.roll.total,
    });
    const rolls = await harness.get('/rolls');
    expect(rolls.body.data.filter((roll: { id: string }) => roll.id === messageId)).toHaveLength(1);
    expect(rolls.body.data[0]).toEqual(last.body.data);
    stream.close();
  });

  it('/openapi.json and /docs say that only a roll posted to chat reaches /rolls/subscribe', async () => {
    const openapi = (await call(harness.baseUrl, 'GET', '/openapi.json')).body;
    const roll = openapi.paths['/roll'].post;
    expect(roll.summary).toContain('Only a roll posted to chat (createChatMessage: true) reaches /rolls/subscribe');
    expect(roll.requestBody.content['application/json'].schema.properties.createChatMessage.description).toContain(
      'no roll event reaches /rolls/subscribe',
    );
    expect((await call(harness.baseUrl, 'GET', '/docs')).text).toContain(
      'Only a roll posted to chat (createChatMessage: true) reaches /rolls/subscribe',
    );
  });

  it('a roll not posted to chat reaches no stream, and keeps its own id in /lastroll', async () => {
    const stream = await harness.stream('/rolls/subscribe');
    const quiet = await harness.post('/roll', { formula: '1d100', flavor: 'Quiet' });
    await harness.post('/roll', { formula: '1d2', flavor: 'Loud', createChatMessage: true });
    await stream.next('roll', { where: ({ data: roll }) => roll.flavor === 'Loud' });
    expect(stream.named('roll').map((event) => event.data.data.flavor)).toEqual(['Loud']);
    const rolls = await harness.get('/rolls', { limit: 2 });
    expect(rolls.body.data[1]).toMatchObject({ id: quiet.body.data.id, messageId: null, flavor: 'Quiet' });
    stream.close();
  });

  it("a player's roll in the world appears on /rolls/subscribe, and the userId filter keeps only that user's", async () => {
    const everyone = await harness.stream('/rolls/subscribe');
    const bobOnly = await harness.stream('/rolls/subscribe', { userId: 'Bob' });
    harness.world.simulate.playerRoll('Alice', '1d20+5');
    harness.world.simulate.playerRoll('Bob', '1d12');
    const bobs = await bobOnly.next('roll');
    expect(bobs.data.data.user.name).toBe('Bob');
    expect(bobs.data.data.formula).toBe('1d12');
    await everyone.next('roll', { where: ({ data: roll }) => roll.formula === '1d12' });
    expect(everyone.named('roll').map((event) => event.data.data.user?.name)).toEqual(['Alice', 'Bob']);
    expect(bobOnly.named('roll')).toHaveLength(1);
    everyone.close();
    bobOnly.close();
  });
});
