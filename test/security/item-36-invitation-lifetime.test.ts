// Issue 23, item 15 (second part): a player's invitation worked for ever, so a link forwarded, photographed or left in
// a chat months ago still gave a key. Now an invitation works a week unless the GM chose otherwise, says when it stops
// in the admin API (and the settings' list, test/ui/invitation-ui.test.ts), and an expired one answers 410 telling the
// player to ask the GM for a new one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

const WEEK_MS = 7 * 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
const SHORT_LIFETIME_MS = 1000;

let harness: WorldHarness;
/** A relay whose invitations, unless the GM says otherwise, live a second: expiry without waiting a week. */
let quick: WorldHarness;

beforeAll(async () => {
  [harness, quick] = await Promise.all([
    startRelayWithWorld(),
    startRelayWithWorld({ seed: 36, relay: { invitationLifetimeMs: SHORT_LIFETIME_MS } }),
  ]);
});

afterAll(async () => {
  await harness?.close();
  await quick?.close();
});

function playerOf(relay: WorldHarness): string {
  return relay.world.playerList().find((user) => user.role === 1)!.id;
}

async function invite(relay: WorldHarness, extra: Record<string, unknown> = {}) {
  const answer = await relay.admin('POST', '/admin/invitations', {
    clientId: relay.clientId,
    userId: playerOf(relay),
    ...extra,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; url: string; createdAt: string; expiresAt: string; status: string };
}

const redeem = (relay: WorldHarness, url: string) =>
  call(relay.baseUrl, 'POST', '/auth/invitation', { body: { secret: new URL(url).hash.slice(1) } });

describe('item 36: an invitation works for a week unless the GM chose otherwise, then answers 410', () => {
  it('says when it expires: a week by default, or the days the GM chose', async () => {
    const week = await invite(harness);
    expect(Date.parse(week.expiresAt) - Date.parse(week.createdAt)).toBe(WEEK_MS);
    const day = await invite(harness, { lifetimeDays: 1 });
    expect(Date.parse(day.expiresAt) - Date.parse(day.createdAt)).toBe(DAY_MS);
    expect(
      (
        await harness.admin('POST', '/admin/invitations', {
          clientId: harness.clientId,
          userId: playerOf(harness),
          lifetimeDays: 0,
        })
      ).status,
    ).toBe(400);
    const listed = (await harness.admin('GET', '/admin/invitations')).body.invitations;
    expect(listed.find((entry: { id: string }) => entry.id === week.id)).toMatchObject({
      status: 'open',
      expiresAt: week.expiresAt,
    });
    expect((await redeem(harness, day.url)).status).toBe(201);
  });

  it('an expired invitation gives no key: 410, telling the player to ask the GM for a new one', async () => {
    const invitation = await invite(quick);
    await new Promise((resolve) => setTimeout(resolve, SHORT_LIFETIME_MS + 100));
    const keysBefore = (await quick.admin('GET', '/admin/keys')).body.keys.length;
    const expired = await redeem(quick, invitation.url);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatch(
      /^This invitation expired on \d{4}-\d{2}-\d{2} without being used: ask the GM for a new invitation$/,
    );
    expect((await quick.admin('GET', '/admin/keys')).body.keys).toHaveLength(keysBefore);
    const listed = (await quick.admin('GET', '/admin/invitations')).body.invitations;
    expect(listed.find((entry: { id: string }) => entry.id === invitation.id).status).toBe('expired');
    // The GM clears it from the list like any other.
    expect((await quick.admin('DELETE', `/admin/invitations/${invitation.id}`)).status).toBe(200);
    expect((await redeem(quick, invitation.url)).status).toBe(404);
  });
});
