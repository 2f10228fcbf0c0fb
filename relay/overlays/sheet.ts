// The character card's sheet variant: the actor's sheet image through GET /sheet's own path (the capture session,
// else the world's module), as the link's user.
import { sheetRoute } from '../api/sheet.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { captureSheet } from '../capture/sheet-route.ts';
import { HttpError } from '../errors.ts';
import { callWorld } from '../routing/call.ts';
import type { Answer, Caller } from '../routing/route.ts';
import { worldAnswer } from '../routing/world-answer.ts';
import { resolveWorld } from '../routing/world-resolution.ts';
import type { RelayServices } from '../services.ts';
import type { OverlayViewer } from './world.ts';

export async function overlaySheet(
  viewer: OverlayViewer,
  options: { format: 'png' | 'jpeg'; scale: number },
  key: ApiKeyRecord | undefined,
  services: RelayServices,
): Promise<Answer> {
  if (!viewer.actorUuid)
    throw new HttpError(404, 'This overlay link names no actor: choose the character in the settings UI (Overlays)');
  const parameters = { uuid: viewer.actorUuid, format: options.format, quality: 0.9, scale: options.scale };
  const caller: Caller = { clientId: viewer.clientId, userId: viewer.userId, key };
  const captured = await captureSheet(parameters, caller, services);
  const answer = captured ?? (await fromWorld(parameters, caller, services));
  if (answer.kind !== 'image') throw new HttpError(502, 'The world sent no sheet image');
  return { ...answer, headers: { ...answer.headers, 'Cache-Control': 'no-store' } };
}

async function fromWorld(parameters: Record<string, unknown>, caller: Caller, services: RelayServices) {
  const world = resolveWorld(services.tabletop, caller.clientId, caller.key);
  const { reply } = await callWorld(sheetRoute, parameters, caller, world, services);
  return worldAnswer(sheetRoute, world, reply, parameters);
}
