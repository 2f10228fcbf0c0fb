import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRoll, userIdsByName } from '../harness/chat-rolls.ts';
import { eventWithin, getOverlay, makeOverlayLink, markOf, openOverlayStream } from '../harness/overlays.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

// Item 20: an OBS overlay is watched by a stream's audience, so it shows what its link's user may see and less: no
// whispered roll of which that user is not a recipient, no hidden combatant, no HP the GM did not allow, no actor the
// user may not observe; and no world event reaches the page as it came, only views built for the link.

let harness: WorldHarness;
let ids: Record<string, string>;
beforeAll(async () => {
  harness = await startRelayWithWorld();
  ids = userIdsByName(harness);
});
afterAll(() => harness.close());

function whisperedRoll(author: string, recipients: string[]): string {
  return postRoll(harness, author, '1d20', recipients);
}

describe('item 20: what an overlay shows its audience', () => {
  it("a player's blind roll to the GM reaches neither that player's dice feed nor an unbound one", async () => {
    const bob = await makeOverlayLink(harness, 'dice', { userId: ids.Bob });
    const unbound = await makeOverlayLink(harness, 'dice');
    const streams = [
      await openOverlayStream(harness, 'dice', bob.link),
      await openOverlayStream(harness, 'dice', unbound.link),
    ];
    const blind = whisperedRoll('Bob', ['Gamemaster']);
    const gmOnly = whisperedRoll('Gamemaster', ['Gamemaster', 'Assistant GM']);
    const sentinel = harness.world.simulate.playerRoll('carol', '1d4').id;
    for (const stream of streams) {
      await stream.next('item', { where: (item) => item.id === sentinel });
      expect(stream.named('item').map((event) => event.data.id)).toEqual([sentinel]);
      stream.close();
    }
    for (const link of [bob.link, unbound.link]) {
      const view = (await getOverlay(harness, 'dice', '/state', link)).body.map((item: { id: string }) => item.id);
      expect(view).not.toContain(blind);
      expect(view).not.toContain(gmOnly);
    }
  });

  it("a world's chat text naming an object's property (&constructor;) shows as written, never as the relay's code", async () => {
    const { link } = await makeOverlayLink(harness, 'chat');
    const said = harness.world.simulate.chat('Alice', 'The &constructor; &toString; &lt;b&gt; rune').id;
    await expect
      .poll(async () => {
        const lines = (await getOverlay(harness, 'chat', '/state', link)).body as { id: string; text: string }[];
        return lines.find((line) => line.id === said)?.text;
      })
      .toBe('The &constructor; &toString; <b> rune');
  });

  it('a hidden combatant never shows, and HP only on a link allowed HP bars, only for actors its user observes', async () => {
    const combat = harness.world.simulate.startCombat();
    const combatants = combat.collection('Combatant').contents;
    harness.world.game.updateDocument(combatants[0]!, { hidden: true });
    const noBars = await makeOverlayLink(harness, 'initiative');
    const bobsBars = await makeOverlayLink(harness, 'initiative', { hpBars: true, userId: ids.Bob });
    const stream = await openOverlayStream(harness, 'initiative', noBars.link);
    await stream.next('state', { where: (view) => view.active });
    const beforeTurn = markOf(stream);
    harness.world.simulate.nextTurn();
    await eventWithin(stream, 'state', (view) => view.active, beforeTurn);
    for (const event of stream.named('state')) {
      const shown = event.data.combatants.map((combatant: { id: string }) => combatant.id);
      expect(shown).not.toContain(combatants[0]!.id);
      expect(event.data.combatants.every((combatant: { hp?: unknown }) => combatant.hp === undefined)).toBe(true);
    }
    stream.close();
    const withBars = (await getOverlay(harness, 'initiative', '/state', bobsBars.link)).body;
    const withHp = withBars.combatants.filter((combatant: { hp?: unknown }) => combatant.hp !== undefined);
    expect(withHp.map((combatant: { name: string }) => combatant.name)).toEqual(['Lyra Moonwhisper']);
    harness.world.simulate.endCombat();
  });

  it("a player's character card of an actor they may not observe shows nothing, and its stream stays silent", async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const { link } = await makeOverlayLink(harness, 'character-card', { actorUuid: thorin, userId: ids.Bob });
    const view = await getOverlay(harness, 'character-card', '/state', link);
    expect(view.status).toBe(400);
    expect(view.text).not.toContain('"hp"');
    const stream = await openOverlayStream(harness, 'character-card', link);
    harness.world.simulate.updateActor(thorin.split('.')[1]!, { 'system.attributes.hp.value': 5 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.events.map((event) => event.name)).toEqual(['connected']);
    stream.close();
  });
});
