import { describe, expect, it } from 'vitest';
import { overlay } from '../../sandbox/world/objects.ts';
import { named, sandbox } from './helpers.ts';

const PATHFINDER = { id: 'pf2e', title: 'Pathfinder Second Edition', version: '7.0.0' };

describe('document defaults', () => {
  it('fills Foundry 13 core defaults in under the data, object by object', () => {
    const world = sandbox();
    const scene = named(world, 'scenes', 'Keep Courtyard');
    const token = world.game.createDocument(
      'Token',
      { name: 'Scout', texture: { src: 'scout.webp' }, light: null, detectionModes: [{ id: 'basicSight' }] },
      { parent: scene },
    );
    expect(token.source).toMatchObject({
      name: 'Scout',
      x: 0,
      y: 0,
      elevation: 0,
      hidden: false,
      width: 1,
      height: 1,
      texture: { src: 'scout.webp', scaleX: 1, anchorX: 0.5 },
      light: null,
      detectionModes: [{ id: 'basicSight' }],
      bar1: { attribute: 'attributes.hp' },
    });
  });

  it("gives a prototype token the actor's name and image when it names none", () => {
    const world = sandbox();
    const actor = world.game.createDocument('Actor', {
      name: 'Wisp',
      type: 'npc',
      img: 'wisp.webp',
      prototypeToken: { width: 2 },
    });
    expect(actor.source.prototypeToken).toMatchObject({
      name: 'Wisp',
      width: 2,
      height: 1,
      texture: { src: 'wisp.webp' },
      actorLink: false,
    });
    expect(actor.source.system).toMatchObject({ attributes: { hp: { value: 10, max: 10 } }, details: { cr: 1 } });
  });

  it('gives dnd5e data and packs only to a dnd5e world', () => {
    const world = sandbox({ system: PATHFINDER });
    const actor = world.game.createDocument('Actor', { name: 'Valeros', type: 'character' });
    expect(actor.source.system).toEqual({});
    expect(actor.source.prototypeToken).toMatchObject({ actorLink: false, bar1: { attribute: null } });
    expect(world.game.createDocument('Scene', { name: 'Otari' }).source.grid).toMatchObject({ distance: 1, units: '' });
    expect([...world.game.packs.keys()]).toEqual(['world.bestiary', 'world.armory', 'world.chronicles']);
  });

  it('lays data over defaults without following prototype keys', () => {
    const laid = overlay(
      { a: { b: 1, c: 2 }, list: [1, 2] },
      JSON.parse('{"a":{"b":3,"__proto__":{"polluted":true}},"list":[3],"skipped":null}'),
    );
    expect(laid).toEqual({ a: { b: 3, c: 2 }, list: [3], skipped: null });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(overlay({ kept: 1 }, { kept: undefined })).toEqual({ kept: 1 });
  });
});
