// Form bodies (application/x-www-form-urlencoded, what curl -d and many Stream Deck HTTP plugins send) against the
// sandbox world over the real protocol: read wherever a JSON body is, coerced exactly as the query string is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { requestsSeenDuring, startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

const FORM = 'application/x-www-form-urlencoded';

async function send(
  method: string,
  path: string,
  body: string,
  contentType: string | undefined,
  key = harness.key,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (contentType !== undefined) headers['content-type'] = contentType;
  const response = await fetch(new URL(path, harness.baseUrl), { method, headers, body });
  return { status: response.status, body: await response.json() };
}

/**
 * What the world was asked, without the parts that differ from one request to the next and without the change journal's
 * reads of the documents a call touches.
 */
function asked(requests: WorldRequest[]): Array<Record<string, unknown>> {
  return requests.filter((request) => request.type !== 'entity').map(({ requestId: _requestId, ...rest }) => rest);
}

describe('form bodies', () => {
  it('POST /roll with formula=1d20 as a form rolls', async () => {
    let answer = { status: 0, body: undefined as any };
    const [request] = await requestsSeenDuring(
      harness,
      async () => (answer = await send('POST', '/roll', 'formula=1d20&flavor=Initiative+roll%21', FORM)),
    );
    expect(request).toMatchObject({ type: 'roll', formula: '1d20', flavor: 'Initiative roll!' });
    expect(answer.status).toBe(200);
    expect(answer.body.data.roll.formula).toBe('1d20');
    expect(answer.body.data.roll.total).toBeGreaterThanOrEqual(1);
    expect(answer.body.data.roll.total).toBeLessThanOrEqual(20);
  });

  it('formula=1d20+5 rolls 1d20 plus 5, as a GM types it into a Stream Deck plugin, though + is a space in a form', async () => {
    let answer = { status: 0, body: undefined as any };
    const [request] = await requestsSeenDuring(
      harness,
      async () => (answer = await send('POST', '/roll', 'formula=1d20+5&createChatMessage=true', FORM)),
    );
    expect(request).toMatchObject({ type: 'roll', formula: '1d20+5', createChatMessage: true });
    expect(answer.status).toBe(200);
    expect(answer.body.data.roll.total).toBeGreaterThanOrEqual(6);
    expect(answer.body.data.roll.total).toBeLessThanOrEqual(25);
    const [spaced] = await requestsSeenDuring(harness, () => send('POST', '/roll', 'formula=2d20kh + 3', FORM));
    expect(spaced).toMatchObject({ formula: '2d20kh + 3' });
  });

  it("a formula an encoder wrote reads as it meant: its + are spaces, %2B its plus signs, and other fields' + spaces", async () => {
    const encoded = new URLSearchParams({ formula: '1d20 + 4 - 2[fire damage]', flavor: 'Fire + ice' }).toString();
    expect(encoded).toBe('formula=1d20+%2B+4+-+2%5Bfire+damage%5D&flavor=Fire+%2B+ice');
    const [request] = await requestsSeenDuring(harness, () => send('POST', '/roll', encoded, FORM));
    expect(request).toMatchObject({ formula: '1d20 + 4 - 2[fire damage]', flavor: 'Fire + ice' });
    const [flavoured] = await requestsSeenDuring(harness, () =>
      send('POST', '/roll', 'formula=1d20+5&flavor=Attack+roll', FORM),
    );
    expect(flavoured).toMatchObject({ formula: '1d20+5', flavor: 'Attack roll' });
  });

  it("a D&D 5e roll's bonus formula from a form keeps its plus sign too", async () => {
    const [request] = await requestsSeenDuring(harness, () =>
      send('POST', '/dnd5e/ability-check', 'actorName=Thorin&ability=str&bonus=1d4+2', FORM),
    );
    expect(request).toMatchObject({ type: 'ability-check', bonus: '1d4+2' });
  });

  it('reads a form with a charset parameter the same', async () => {
    const answer = await send('POST', '/roll', 'formula=2d6', `${FORM}; charset=UTF-8`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.roll.formula).toBe('2d6');
  });

  it('coerces flags, numbers, lists and JSON objects exactly as the query string and a typed JSON body give them', async () => {
    const fields = {
      entityType: 'Actor',
      data: '{"name":"Form Goblin","type":"npc","system":{"hp":7}}',
      keepId: 'false',
      override: '0',
    };
    const viaForm = await requestsSeenDuring(harness, () =>
      send('POST', '/create', new URLSearchParams(fields).toString(), FORM),
    );
    const viaQuery = await requestsSeenDuring(harness, () => harness.post('/create', {}, fields));
    const viaJson = await requestsSeenDuring(harness, () =>
      harness.post('/create', {
        entityType: 'Actor',
        data: { name: 'Form Goblin', type: 'npc', system: { hp: 7 } },
        keepId: false,
        override: false,
      }),
    );
    expect(asked(viaForm)).toEqual(asked(viaQuery));
    expect(asked(viaForm)).toEqual(asked(viaJson));
    expect(viaForm[0]).toMatchObject({
      entityType: 'Actor',
      data: { name: 'Form Goblin', system: { hp: 7 } },
      keepId: false,
      override: false,
    });
  });

  it('gives a list from a repeated field or a comma-separated one, and a number from its text', async () => {
    const [repeated] = await requestsSeenDuring(harness, () =>
      send('POST', '/chat', 'content=Hello&whisper=user-a&whisper=user-b&chatType=1', FORM),
    );
    const [commas] = await requestsSeenDuring(harness, () =>
      send('POST', '/chat', 'content=Hello&whisper=user-a%2C+user-b&chatType=1', FORM),
    );
    expect(repeated).toMatchObject({ content: 'Hello', whisper: ['user-a', 'user-b'], chatType: 1 });
    expect(asked([commas!])).toEqual(asked([repeated!]));
  });

  it('names a bad field as it does for JSON, and refuses a field named __proto__', async () => {
    expect(await send('POST', '/chat', 'content=Hi&chatType=nine', FORM)).toEqual({
      status: 400,
      body: { error: "'chatType' must be a number" },
    });
    expect(await send('POST', '/roll', 'flavor=x', FORM)).toEqual({
      status: 400,
      body: { error: "'formula' is required" },
    });
    const polluted = await send('POST', '/roll', 'formula=1d20&__proto__=x', FORM);
    expect(polluted.status).toBe(400);
    expect(polluted.body.error).toMatch(/'__proto__' is not allowed/);
  });

  it('answers a text/plain body, or a body without a type, with 415 naming the accepted types', async () => {
    const accepted =
      'JSON (Content-Type: application/json) or a form (Content-Type: application/x-www-form-urlencoded)';
    expect(await send('POST', '/roll', 'formula=1d20', 'text/plain')).toEqual({
      status: 415,
      body: { error: `The request body must be ${accepted}; this one was sent as text/plain` },
    });
    const untyped = await fetch(new URL('/roll', harness.baseUrl), {
      method: 'POST',
      headers: { 'x-api-key': harness.key },
      body: new Uint8Array(Buffer.from('formula=1d20')),
    });
    expect(untyped.status).toBe(415);
    expect((await untyped.json()).error).toBe(
      `The request body must be ${accepted}; this one was sent as no Content-Type`,
    );
    expect((await send('POST', '/roll', '{"formula":"1d20"}', 'application/json')).status).toBe(200);
  });

  it('lets an empty body of any type through, and keeps raw bytes of any type on the upload route', async () => {
    const empty = await fetch(new URL('/clients', harness.baseUrl), {
      method: 'GET',
      headers: { 'x-api-key': harness.key, 'content-type': 'text/plain' },
    });
    expect(empty.status).toBe(200);
    const noBody = await send('DELETE', '/chat', '', 'text/plain');
    expect(noBody.status).toBe(200);
    const upload = await send('POST', '/upload?path=notes&filename=a.txt', 'plain words', 'text/plain');
    expect(upload.status).toBe(200);
    const [formUpload] = await requestsSeenDuring(harness, () =>
      send('POST', '/upload', 'path=notes&filename=b.txt&fileData=data%3Atext%2Fplain%3Bbase64%2CaGk%3D', FORM),
    );
    expect(formUpload).toMatchObject({ path: 'notes', filename: 'b.txt', fileData: 'data:text/plain;base64,aGk=' });
  });

  it('refuses a form on admin routes (a form post is the cross-site attack)', async () => {
    const response = await fetch(new URL('/admin/keys', harness.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.relay.adminToken}`, 'content-type': FORM },
      body: 'name=planted&scopes=clients%3Aread',
    });
    expect(response.status).toBe(415);
    expect((await response.json()).error).toBe(
      'Admin changes take a JSON body: send it with Content-Type: application/json',
    );
    expect(
      (await harness.admin('GET', '/admin/keys')).body.keys.map((key: { name: string }) => key.name),
    ).not.toContain('planted');
  });
});
