import { z } from 'zod';
import { flag, number, oneOf, text } from '../routing/parameters.ts';
import { captureSheet } from '../capture/sheet-route.ts';
import { worldRoute, type Route, type WorldRoute } from '../routing/route.ts';

/** GET /sheet, which the character card overlay's sheet variant also runs. */
export const sheetRoute = worldRoute({
  method: 'GET',
  path: '/sheet',
  summary: "An image of an entity's sheet (PNG or JPEG bytes)",
  access: { scope: 'sheet:read' },
  playerView: { passes: 'the world, or the capture page, renders only a sheet the user observes' },
  parameters: z
    .object({
      uuid: text().optional().describe('The entity to capture'),
      selected: flag().optional().describe('Capture the selected token'),
      actor: flag().optional().describe("With selected: capture the token's actor"),
      format: oneOf(['png', 'jpeg']).default('png').describe('Image format'),
      quality: number({ min: 0, max: 1 }).default(0.9).describe('JPEG quality, 0 to 1'),
      scale: number({ min: 0.1, max: 4 }).default(1).describe('Device pixel ratio of the capture'),
    })
    .refine((p) => p.uuid !== undefined || p.selected === true, { error: "Either 'uuid' or 'selected' is required" }),
  operation: 'sheet-screenshot',
  timeoutMs: 20_000,
  reply: 'image',
  replyHeaders: { 'X-Sheet-Source': 'world' },
  answerInRelay: captureSheet,
}) as WorldRoute;

export const sheetRoutes: Route[] = [sheetRoute];
