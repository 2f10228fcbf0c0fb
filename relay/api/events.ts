import { z } from 'zod';
import { text, textList } from '../routing/parameters.ts';
import { streamRoute, type Route } from '../routing/route.ts';

const scope = { scope: 'events:subscribe' } as const;

// These streams are the GM's only (contracts/streams.ts): a key bound to a player may not open them.
export const eventRoutes: Route[] = [
  streamRoute({
    method: 'GET',
    path: '/hooks/subscribe',
    summary: 'Stream tabletop hook events, named after the hook (Server-Sent Events)',
    access: scope,
    parameters: z.object({
      hooks: textList().optional().describe('Hook names to keep, comma-separated; omit for all'),
    }),
    stream: 'hooks',
    filter: (p) => ({ hooks: p.hooks }),
  }),
  streamRoute({
    method: 'GET',
    path: '/encounters/subscribe',
    summary:
      'Stream combat events: combat-start, combat-turn, combat-combatant-add, combat-combatant-remove, combat-end',
    access: scope,
    parameters: z.object({ encounterId: text().optional().describe('Only this combat') }),
    stream: 'combat',
    filter: (p) => ({ encounterId: p.encounterId }),
  }),
  streamRoute({
    method: 'GET',
    path: '/actor/subscribe',
    summary: "Stream actors' events: actor-update, actor-effect-add, actor-item-add, ...",
    access: scope,
    parameters: z.object({ actorUuid: text().optional().describe('Only this actor; omit for every actor') }),
    stream: 'actor',
    filter: (p) => ({ actorUuid: p.actorUuid }),
  }),
  streamRoute({
    method: 'GET',
    path: '/scene/subscribe',
    summary: 'Stream scene events: scene-token-create, scene-token-update, scene-wall-delete, ...',
    access: scope,
    parameters: z.object({ sceneId: text().optional().describe('Only this scene') }),
    stream: 'scene',
    filter: (p) => ({ sceneId: p.sceneId }),
  }),
];
