import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_CUSTOM_CSS_BYTES, OverlayLinks } from '../../relay/auth/overlay-links.ts';
import { hashSecret } from '../../relay/auth/secrets.ts';
import { OVERLAYS } from '../../contracts/overlays.ts';
import { SCOPES } from '../../relay/auth/scopes.ts';
import { StorageWriteError } from '../../relay/storage/json-file.ts';

const CLIENT_ID = 'fvtt_storeworld00001';

describe('the overlay link store', () => {
  let dir: string;
  let path: string;
  let links: OverlayLinks;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tabletop-relay-overlay-links-'));
    path = join(dir, 'overlay-links.json');
    links = new OverlayLinks(path);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps only the hash of a link, shows its prefix, and names it after its overlay and world', () => {
    const { link, record } = links.create({ overlay: 'dice', clientId: CLIENT_ID, worldTitle: 'Curse of Strahd' });
    expect(link).toMatch(/^ttol_[\w-]{43}$/);
    expect(record).toMatchObject({
      name: 'Dice feed · Curse of Strahd',
      overlay: 'dice',
      clientId: CLIENT_ID,
      hpBars: false,
      customCss: '',
      prefix: link.slice(0, 11),
      scopes: OVERLAYS.dice.scopes,
    });
    const stored = readFileSync(path, 'utf8');
    expect(stored).not.toContain(link);
    expect(JSON.parse(stored)[0].hash).toBe(hashSecret(link));
    expect(links.create({ overlay: 'chat', clientId: CLIENT_ID }).record.name).toBe(`Chat ticker · ${CLIENT_ID}`);
  });

  it('verifies a link it made, not another one, and keeps links and last use across a restart', () => {
    const { link, record } = links.create({
      overlay: 'initiative',
      clientId: CLIENT_ID,
      userId: 'Alice',
      hpBars: true,
    });
    expect(links.verify(link)?.id).toBe(record.id);
    expect(links.verify(`${link}x`)).toBeUndefined();
    expect(links.verify(`ttr_${link.slice(5)}`)).toBeUndefined();
    const used = links.get(record.id)!.lastUsedAt;
    expect(used).toEqual(expect.any(String));
    links.flush();

    const reopened = new OverlayLinks(path);
    expect(reopened.verify(link)).toMatchObject({ id: record.id, userId: 'Alice', hpBars: true });
    expect(reopened.list()).toEqual([expect.objectContaining({ id: record.id, lastUsedAt: expect.any(String) })]);
  });

  it('needs an actor for a character card, and refuses CSS that is too long or ends its style element', () => {
    expect(() => links.create({ overlay: 'character-card', clientId: CLIENT_ID })).toThrow(/actorUuid/);
    const big = 'a'.repeat(MAX_CUSTOM_CSS_BYTES + 1);
    expect(() => links.create({ overlay: 'dice', clientId: CLIENT_ID, customCss: big })).toThrow(/at most 20 KiB/);
    expect(() =>
      links.create({ overlay: 'dice', clientId: CLIENT_ID, customCss: 'b{}</STYLE><script>alert(1)</script>' }),
    ).toThrow(/<\/style/);
    const card = links.create({ overlay: 'character-card', clientId: CLIENT_ID, actorUuid: 'Actor.abc' });
    expect(() => links.update(card.record.id, { actorUuid: '' })).toThrow(/actorUuid/);
    expect(links.list()).toHaveLength(1);
  });

  it('changes, rotates and revokes a link, saying so each time; the old secret stops at once', () => {
    const changes: string[] = [];
    links.on('changed', (id, change) => changes.push(`${id} ${change}`));
    const { link, record } = links.create({ overlay: 'dice', clientId: CLIENT_ID, userId: 'Alice' });

    const updated = links.update(record.id, { name: 'Stream', userId: '', customCss: 'b { color: red }' });
    expect(updated).toMatchObject({ name: 'Stream', customCss: 'b { color: red }' });
    expect(updated).not.toHaveProperty('userId');
    const rotated = links.rotate(record.id)!;
    expect(links.verify(link)).toBeUndefined();
    expect(links.verify(rotated.link)?.name).toBe('Stream');
    expect(links.revoke(record.id)).toEqual({});
    expect(links.verify(rotated.link)).toBeUndefined();
    expect(links.revoke(record.id)).toBeUndefined();
    expect(links.update('no-such-id', { name: 'x' })).toBeUndefined();
    expect(changes).toEqual([`${record.id} updated`, `${record.id} rotated`, `${record.id} revoked`]);
  });

  it('holds only scopes the relay knows, each overlay with events:subscribe and no write scope', () => {
    for (const { scopes } of Object.values(OVERLAYS)) {
      for (const scope of scopes) expect(SCOPES).toContain(scope);
      expect(scopes).toContain('events:subscribe');
      expect(scopes.filter((scope) => /write|execute|manage|delete|create|world:link/.test(scope))).toEqual([]);
    }
  });

  it('changes nothing in memory, and tells no one, when the file cannot be written; a revocation is the exception', () => {
    const { link, record } = links.create({ overlay: 'dice', clientId: CLIENT_ID });
    const before = links.list();
    const changed = vi.fn();
    links.on('changed', changed);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // A file where the data directory was: every write now fails.
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a directory');

    expect(() => links.create({ overlay: 'chat', clientId: CLIENT_ID })).toThrow(StorageWriteError);
    expect(() => links.update(record.id, { name: 'renamed' })).toThrow(StorageWriteError);
    expect(() => links.rotate(record.id)).toThrow(StorageWriteError);

    expect(links.list()).toEqual(before);
    expect(links.verify(link)?.id).toBe(record.id);
    expect(changed).not.toHaveBeenCalled();

    // Revoking must not wait for the disk: the link stops at once, and the file is written when it can be.
    expect(links.revoke(record.id)?.unstored).toBeInstanceOf(StorageWriteError);
    expect(links.verify(link)).toBeUndefined();
    expect(links.list()).toEqual([]);
    expect(changed).toHaveBeenCalledWith(record.id, 'revoked');
    rmSync(dir, { force: true });
    links.flush();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual([]);
    vi.restoreAllMocks();
  });
});
