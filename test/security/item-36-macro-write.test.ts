// Item 36 (macro:write): macros run code whoever clicks them, so a key without `macro:write` may not change one through
// any route: not only POST /create, but PUT /update, DELETE /delete, POST /increase, /decrease and /kill of a Macro's
// UUID, and DELETE /delete-folder of a Macro folder with its contents. The relay refuses before the world is asked to
// make the change, over HTTP and /ws/api alike, whatever the world would have checked of the scopes it is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSocket } from '../harness/caller-api.ts';
import { entityRoutes } from '../../relay/api/entity.ts';
import { requestsSeenDuring, startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let macroUuid: string;
let entityWriter: string;
beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { settings: { requestsPerMinute: 0 } } });
  // The GM allowed macro writes in the module's settings: only the key's scopes stand in the way.
  harness.world.game.settings.allowMacroWrite = true;
  macroUuid = await uuidOf(harness, 'Roll Initiative', 'Macro');
  entityWriter = await harness.keyWith(['entity:read', 'entity:write']);
});
afterAll(() => harness.close());

function macro() {
  return harness.world.game.fromUuid(macroUuid)!;
}

const REFUSAL = 'API key lacks required scope: macro:write';

describe('item 36: changing a macro needs macro:write on every route', () => {
  it('refuses update, delete, increase, decrease and kill of a Macro over HTTP before the world is asked', async () => {
    const attacks: Array<[string, string, Record<string, unknown>]> = [
      ['PUT', '/update', { uuid: macroUuid, data: { command: 'game.settings.set("core", "x", 1)' } }],
      ['DELETE', '/delete', { uuid: macroUuid }],
      ['POST', '/increase', { uuid: macroUuid, attribute: 'ownership.default', amount: 3 }],
      ['POST', '/decrease', { uuid: macroUuid, attribute: 'sort', amount: 1 }],
      ['POST', '/kill', { uuid: macroUuid }],
    ];
    const before = JSON.stringify(macro().toObject());
    const seen = await requestsSeenDuring(harness, async () => {
      for (const [method, path, body] of attacks) {
        const answer = await harness.api(entityWriter, method, path, { body });
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
        expect(answer.body.error).toBe(REFUSAL);
        expect(answer.headers.get('x-required-scope')).toBe('macro:write');
      }
    });
    expect(seen).toEqual([]);
    expect(JSON.stringify(macro().toObject())).toBe(before);
  });

  it('refuses the same over /ws/api', async () => {
    const caller = await ApiSocket.open(harness.wsUrl, entityWriter);
    try {
      caller.send({ type: 'increase', requestId: 'raise', uuid: macroUuid, attribute: 'ownership.default', amount: 3 });
      caller.send({ type: 'update', requestId: 'rewrite', uuid: macroUuid, data: { command: 'return 1' } });
      for (const requestId of ['raise', 'rewrite'])
        expect(await caller.next((message) => message.requestId === requestId)).toMatchObject({
          status: 403,
          error: REFUSAL,
        });
    } finally {
      caller.close();
    }
    expect(macro().ownership.default ?? 0).toBe(0);
  });

  it("refuses deleting a Macro folder with its contents without macro:write, but not another folder's", async () => {
    const folderNamed = (name: string) => harness.world.game.folders.find((folder) => folder.name === name)!;
    const structureWriter = await harness.keyWith(['structure:read', 'structure:write']);
    const gmTools = folderNamed('GM Tools');
    const seen = await requestsSeenDuring(harness, async () => {
      const answer = await harness.api(structureWriter, 'DELETE', '/delete-folder', {
        body: { folderId: gmTools.id, deleteAll: true },
      });
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body.error).toBe(REFUSAL);
    });
    expect(seen.map((request) => request.type)).not.toContain('delete-folder');
    expect(macro()).not.toBeNull();
    const emptyShelf = await harness.api(structureWriter, 'DELETE', '/delete-folder', {
      body: { folderId: folderNamed('Empty Shelf').id, deleteAll: true },
    });
    expect(emptyShelf.status, emptyShelf.text).toBe(200);
  });

  it('lets a key with macro:write change a macro, and entity:write alone change other documents', async () => {
    const macroWriter = await harness.keyWith(['entity:write', 'macro:write']);
    const renamed = await harness.api(macroWriter, 'PUT', '/update', {
      body: { uuid: macroUuid, data: { name: 'Roll Initiative!' } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(macro().name).toBe('Roll Initiative!');
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const healed = await harness.api(entityWriter, 'POST', '/increase', {
      body: { uuid: thorin, attribute: 'system.attributes.hp.value', amount: 1 },
    });
    expect(healed.status, healed.text).toBe(200);
  });

  it('reads a compendium UUID without its type from the world first: a macro there needs macro:write too', async () => {
    const update = entityRoutes.find((route) => route.path === '/update');
    if (update?.kind !== 'world' || !update.alsoRequires) throw new Error('PUT /update asks no more scopes');
    const resolving = (uuid: string | undefined) => async () => ({ data: uuid === undefined ? {} : { uuid } });
    const short = 'Compendium.world.gm-tools.abc123';
    const needs = (answer: () => Promise<unknown>) =>
      update.alsoRequires!({ uuid: short, data: {} } as never, answer as never);
    expect(await needs(resolving('Compendium.world.gm-tools.Macro.abc123'))).toBe('macro:write');
    expect(await needs(resolving('Compendium.world.gm-tools.Item.abc123'))).toBeUndefined();
    expect(await needs(resolving(undefined))).toBe('macro:write');
    expect(await needs(async () => Promise.reject(new Error('offline')))).toBe('macro:write');
  });
});
