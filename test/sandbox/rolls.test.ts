import { describe, expect, it } from 'vitest';
import { evaluateRoll, moduleCriticalFlags, toLibraryNotation } from '../../sandbox/dice.ts';
import { createRandomSource } from '../../sandbox/world/random.ts';
import { ask, named, NOW, recordPushes, sandbox, tokenNamed } from './helpers.ts';

describe('dice', () => {
  it('replays the same results for the same seed and differs for another seed', async () => {
    const formulas = ['1d20+5', '4d6kh3', '2d20kl1', '8d6'];
    const rollAll = async (seed: number) => {
      const world = sandbox({ seed });
      const replies = [];
      for (const formula of formulas) replies.push((await ask(world, 'roll', { formula })).data.roll.dice);
      return replies;
    };
    expect(await rollAll(42)).toEqual(await rollAll(42));
    expect(await rollAll(42)).not.toEqual(await rollAll(43));
  });

  it('reports dropped dice as inactive for kh and kl', () => {
    const random = createRandomSource(9);
    for (let i = 0; i < 20; i++) {
      const highest = evaluateRoll('2d20kh', random);
      const [a, b] = highest.dice[0]!.results;
      expect([a!.active, b!.active].filter(Boolean)).toHaveLength(1);
      const kept = highest.dice[0]!.results.find((r) => r.active)!.result;
      expect(kept).toBe(Math.max(a!.result, b!.result));
      expect(highest.total).toBe(kept);
      const lowest = evaluateRoll('2d20kl1+3', random);
      const keptLow = lowest.dice[0]!.results.find((r) => r.active)!.result;
      expect(keptLow).toBe(Math.min(...lowest.dice[0]!.results.map((r) => r.result)));
      expect(lowest.total).toBe(keptLow + 3);
    }
  });

  it('translates Foundry-only syntax', () => {
    expect(toLibraryNotation('4d6kh3')).toBe('4d6kh3');
    expect(toLibraryNotation('2d20kh + 1d4[fire]')).toBe('2d20kh1 + 1d4');
    expect(toLibraryNotation('5d10x10')).toBe('5d10!=10');
    expect(toLibraryNotation('2d6r1')).toBe('2d6ro=1');
    expect(toLibraryNotation('2d6rr<2')).toBe('2d6r<2');
    expect(toLibraryNotation('10d10cs>=7')).toBe('10d10>=7');
    const successes = evaluateRoll('10d10cs>=7', createRandomSource(1));
    expect(successes.total).toBe(successes.dice[0]!.results.filter((r) => r.result >= 7).length);
  });

  it('applies the module heuristic: any top-level die equal to the first die size, or to 1, dropped dice included', () => {
    const roll = { formula: '2d20kh', total: 5, dice: [], firstTermFaces: 20, topLevelResults: [5, 1] };
    expect(moduleCriticalFlags(roll)).toEqual({ isCritical: false, isFumble: true });
    expect(moduleCriticalFlags({ ...roll, topLevelResults: [20, 3] })).toEqual({ isCritical: true, isFumble: false });
    expect(moduleCriticalFlags({ ...roll, firstTermFaces: undefined, topLevelResults: [20] }).isCritical).toBe(false);
    const random = createRandomSource(3);
    let sawParenthesised = false;
    for (let i = 0; i < 50; i++) {
      const nested = evaluateRoll('(1d20)+1d20', random);
      expect(nested.firstTermFaces).toBeUndefined();
      expect(nested.topLevelResults).toHaveLength(1);
      sawParenthesised ||= nested.dice.length === 2;
    }
    expect(sawParenthesised).toBe(true);
  });
});

describe('roll', () => {
  it('answers with the module envelope and records a manual entry', async () => {
    const world = sandbox();
    const reply = await ask(world, 'roll', { formula: '1d20+5', flavor: 'Attack' });
    expect(reply.success).toBe(true);
    expect(reply.data.id).toMatch(new RegExp(`^manual_${NOW}_[0-9a-z]+$`));
    expect(reply.data.chatMessageCreated).toBe(false);
    const { roll } = reply.data;
    expect(roll.formula).toBe('1d20+5');
    expect(roll.total).toBe(roll.dice[0].results[0].result + 5);
    expect(roll.timestamp).toBe(NOW);
    expect(roll.isCritical).toBe(roll.dice[0].results[0].result === 20);
    const last = await ask(world, 'last-roll');
    expect(last.data).toEqual({
      id: reply.data.id,
      messageId: null,
      user: null,
      speaker: {},
      flavor: 'Attack',
      rollTotal: roll.total,
      formula: '1d20+5',
      isCritical: roll.isCritical,
      isFumble: roll.isFumble,
      dice: roll.dice,
      timestamp: NOW,
    });
  });

  it('fails bad formulas with the module text', async () => {
    const world = sandbox();
    const reply = await ask(world, 'roll', { formula: '1d20+bogus' });
    expect(reply).toEqual({
      type: 'roll-result',
      requestId: reply.requestId,
      success: false,
      error: 'Failed to roll formula: Unresolved StringTerm bogus requested for evaluation',
    });
    expect((await ask(world, 'rolls')).data).toEqual([]);
  });

  it('resolves actor and token speakers', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const token = tokenNamed(world, 'Keep Courtyard', 'Thorin Ironfoot');
    const courtyard = named(world, 'scenes', 'Keep Courtyard');
    await ask(world, 'roll', { formula: '1d4', speaker: thorin.uuid });
    expect((await ask(world, 'last-roll')).data.speaker).toEqual({
      token: token.id,
      actor: thorin.id,
      scene: courtyard.id,
      alias: 'Thorin Ironfoot',
    });
    const captain = named(world, 'actors', 'Captain Goodwin');
    await ask(world, 'roll', { formula: '1d4', speaker: captain.uuid });
    expect((await ask(world, 'last-roll')).data.speaker).toEqual({ actor: captain.id, alias: 'Captain Goodwin' });
  });

  it('creates a public chat message and, with roll-events on, the hook entry lands behind the manual one', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('roll-events', true);
    world.setChannel('chat-events', true);
    const reply = await ask(world, 'roll', { formula: '2d6', createChatMessage: true, whisper: ['someone'] });
    expect(reply.data.chatMessageCreated).toBe(true);
    const message = world.game.messages.contents.at(-1)!;
    expect(message.source.whisper).toEqual([]);
    const rolls = (await ask(world, 'rolls')).data;
    expect(rolls.map((r: { id: string }) => r.id)).toEqual([reply.data.id, message.id]);
    expect(rolls[0].messageId).toBe(reply.data.id);
    expect(rolls[1]).toMatchObject({
      messageId: message.id,
      user: { id: world.game.moduleUserId, name: 'Gamemaster' },
      isCritical: false,
      isFumble: false,
    });
    expect(pushes.map((p) => p.type)).toEqual(['roll-data', 'chat-event']);
    expect(pushes[0]!.data).toEqual(rolls[1]);
  });

  it('keeps 20 entries newest first and honours limit', async () => {
    const world = sandbox();
    for (let i = 1; i <= 22; i++) await ask(world, 'roll', { formula: `${i}` });
    const rolls = (await ask(world, 'rolls')).data;
    expect(rolls.map((r: { formula: string }) => r.formula)).toEqual(Array.from({ length: 20 }, (_, i) => `${22 - i}`));
    expect((await ask(world, 'rolls', { limit: 3 })).data).toHaveLength(3);
    expect(await ask(world, 'rolls', { userId: 'nobody' })).toMatchObject({
      error: 'User not found: nobody',
      data: null,
    });
  });
});

describe('rolls from the table', () => {
  it('feeds the buffer from chat rolls only while roll-events is enabled', async () => {
    const world = sandbox();
    world.simulate.playerRoll('Alice', '1d20+5');
    expect((await ask(world, 'last-roll')).data).toBeNull();
    const pushes = recordPushes(world);
    world.setChannel('roll-events', true);
    const message = world.simulate.playerRoll('Alice', '1d20+5', 'Stealth');
    const entry = (await ask(world, 'last-roll')).data;
    expect(entry).toMatchObject({
      id: message.id,
      messageId: message.id,
      user: { id: named(world, 'users', 'Alice').id, name: 'Alice' },
      flavor: 'Stealth',
      formula: '1d20+5',
    });
    expect(entry.speaker).toMatchObject({
      alias: 'Thorin Ironfoot',
      actor: named(world, 'actors', 'Thorin Ironfoot').id,
    });
    expect(pushes).toEqual([{ type: 'roll-data', data: entry }]);
    world.setChannel('roll-events', false);
    world.simulate.playerRoll('Bob', '1d6');
    expect((await ask(world, 'rolls')).data).toHaveLength(1);
    expect(pushes).toHaveLength(1);
  });
});
