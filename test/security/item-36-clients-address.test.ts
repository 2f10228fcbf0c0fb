// Item 36 (/clients): GET /clients listed, for each connected world, the address the GM's Foundry page connects from
// (`ipAddress`) to any key with `clients:read`, a player's invitation key included. It now goes only to GM-level keys:
// a key bound to no user, or to a GM of that world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_SCOPES, TOOL_SCOPES } from '../../relay/auth/scopes.ts';
import { userIdsByName } from '../harness/chat-rolls.ts';
import { ApiSocket } from '../harness/caller-api.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let ids: Record<string, string>;
beforeAll(async () => {
  harness = await startRelayWithWorld();
  ids = userIdsByName(harness);
});
afterAll(() => harness.close());

function ofWorld(body: { clients: Array<Record<string, unknown>> }) {
  return body.clients.find((client) => client.clientId === harness.clientId)!;
}

describe("item 36: a world's address in GET /clients is for GM-level keys only", () => {
  it("a player's key sees its world listed without the address, over HTTP and /ws/api", async () => {
    const player = await harness.keyWith(PLAYER_SCOPES, { userId: ids.Bob, worldIds: [harness.clientId] });
    const listed = ofWorld((await harness.api(player, 'GET', '/clients')).body);
    expect(listed).toMatchObject({ clientId: harness.clientId, isOnline: true });
    expect(listed).not.toHaveProperty('ipAddress');
    const caller = await ApiSocket.open(harness.wsUrl, player);
    try {
      caller.send({ type: 'get-clients', requestId: 'c' });
      const answer = await caller.next((message) => message.requestId === 'c');
      expect(JSON.stringify(answer)).not.toContain('127.0.0.1');
    } finally {
      caller.close();
    }
  });

  it('a key bound to no user, to the GM or to an Assistant GM sees the address', async () => {
    const keys = [
      harness.key,
      await harness.keyWith(TOOL_SCOPES, { userId: ids.Gamemaster }),
      await harness.keyWith(['clients:read'], { userId: 'assistant gm' }),
    ];
    for (const key of keys)
      expect(ofWorld((await harness.api(key, 'GET', '/clients')).body).ipAddress).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
