import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRoll, userIdsByName } from '../harness/chat-rolls.ts';
import type { EventStream } from '../harness/sse.ts';
import { getOverlay, makeOverlayLink, openOverlayStream } from '../harness/overlays.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

// A stream's audience sees what the link's user sees, and never another player's or the GM's private roll.

let harness: WorldHarness;
let ids: Record<string, string>;
beforeAll(async () => {
  harness = await startRelayWithWorld();
  ids = userIdsByName(harness);
});
afterAll(() => harness.close());

function roll(author: string, formula: string, whisper: string[] = []): string {
  return postRoll(harness, author, formula, whisper);
}

interface Viewer {
  name: string;
  link: string;
  stream: EventStream;
}

async function viewer(name: string, userId?: string): Promise<Viewer> {
  const { link } = await makeOverlayLink(harness, 'dice', userId === undefined ? {} : { userId });
  return { name, link, stream: await openOverlayStream(harness, 'dice', link) };
}

/** The ids of the rolls a viewer's stream received until `last` (a public roll every viewer gets). */
async function streamed(viewer: Viewer, last: string): Promise<string[]> {
  await viewer.stream.next('item', { where: (item) => item.id === last });
  return viewer.stream.named('item').map((event) => event.data.id);
}

async function stated(viewer: Viewer): Promise<string[]> {
  const answer = await getOverlay(harness, 'dice', '/state', viewer.link);
  expect(answer.status).toBe(200);
  return (answer.body as { id: string }[]).map((item) => item.id);
}

describe('the dice feed keeps private rolls private', () => {
  it('a whispered roll reaches only the links of its recipients, live and in the view', async () => {
    const viewers = [
      await viewer('nobody'),
      await viewer('Alice', ids.Alice),
      await viewer('Bob', ids.Bob),
      // A link may name its user by name; whispers list ids.
      await viewer('Alice by name', 'alice'),
    ];
    const gmRollOfBob = roll('Bob', '1d20+4', ['Gamemaster', 'Assistant GM']);
    const gmWhisperToAlice = roll('Gamemaster', '1d100', ['Alice']);
    const selfRollOfBob = roll('Bob', '1d8', ['Bob']);
    const gmSecret = roll('Gamemaster', '3d6', ['Gamemaster']);
    const publicRoll = roll('Carol', '1d4');
    const expected: Record<string, string[]> = {
      nobody: [publicRoll],
      Alice: [gmWhisperToAlice, publicRoll],
      'Alice by name': [gmWhisperToAlice, publicRoll],
      Bob: [selfRollOfBob, publicRoll],
    };
    for (const each of viewers) {
      expect(await streamed(each, publicRoll), each.name).toEqual(expected[each.name]);
      const view = await stated(each);
      for (const secret of [gmRollOfBob, gmSecret]) expect(view, each.name).not.toContain(secret);
      expect(view.slice(-expected[each.name]!.length), each.name).toEqual(expected[each.name]);
      each.stream.close();
    }
  });

  it('a whispered chat line shows on its recipient’s chat ticker only', async () => {
    const open = async (userId?: string) => {
      const { link } = await makeOverlayLink(harness, 'chat', userId === undefined ? {} : { userId });
      return { link, stream: await openOverlayStream(harness, 'chat', link) };
    };
    const nobody = await open();
    const alice = await open(ids.Alice);
    const bob = await open(ids.Bob);
    await harness.post('/chat', { content: 'The treasure is under the altar', whisper: [ids.Alice] });
    const said = await harness.post('/chat', { content: 'Roll for initiative!' });
    const last = said.body.data.id;
    const linesOf = async (stream: EventStream) => {
      await stream.next('item', { where: (item) => item.id === last });
      return stream.named('item').map((event) => event.data.text);
    };
    expect(await linesOf(alice.stream)).toEqual(['The treasure is under the altar', 'Roll for initiative!']);
    expect(await linesOf(bob.stream)).toEqual(['Roll for initiative!']);
    expect(await linesOf(nobody.stream)).toEqual(['Roll for initiative!']);
    const texts = (await getOverlay(harness, 'chat', '/state', nobody.link)).body.map((line: any) => line.text);
    expect(texts).not.toContain('The treasure is under the altar');
    for (const each of [nobody, alice, bob]) each.stream.close();
  });
});
