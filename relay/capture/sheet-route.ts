// GET /sheet from the capture session: the relay renders the sheet in its own logged-in Foundry page instead of
// asking the world's module, and answers with the same bytes, headers and JSON errors.
import { HttpError } from '../errors.ts';
import type { Fields } from '../routing/call.ts';
import type { Caller, ImageAnswer } from '../routing/route.ts';
import { resolveWorld } from '../routing/world-resolution.ts';
import type { RelayServices } from '../services.ts';
import { ChromeNotFoundError } from './puppeteer-browser.ts';
import { captureHttpError } from './capture-errors.ts';
import type { CaptureService } from './capture-service.ts';

const SELECTION_TIMEOUT_MS = 10_000;

/** The sheet's image from the capture session, or undefined when the world should answer (no capture, another world). */
export async function captureSheet(
  parameters: Fields,
  caller: Caller,
  services: RelayServices,
): Promise<ImageAnswer | undefined> {
  const capture = services.capture;
  if (!capture?.usable()) return undefined;
  try {
    if (!(await servesCaller(capture, caller))) return undefined;
    const uuid = parameters.uuid ?? (await selectionFromWorld(parameters, caller, services));
    const image = await capture.capture({
      uuid: uuid as string | undefined,
      selected: parameters.selected === true && uuid === undefined,
      actor: parameters.actor === true,
      userId: caller.userId,
      format: parameters.format === 'jpeg' ? 'jpeg' : 'png',
      quality: Number(parameters.quality),
      scale: Number(parameters.scale),
    });
    return {
      kind: 'image',
      bytes: image.bytes,
      mimeType: image.mimeType,
      width: image.width,
      height: image.height,
      headers: { 'Content-Length': String(image.bytes.byteLength), 'X-Sheet-Source': 'capture' },
    };
  } catch (error) {
    if (error instanceof ChromeNotFoundError) return undefined;
    throw captureHttpError(error, 'The capture session');
  }
}

/** The capture session is logged in to one world: a call naming, or bound to, other worlds goes to the world path. */
async function servesCaller(capture: CaptureService, caller: Caller): Promise<boolean> {
  if (caller.clientId === undefined && !caller.key?.worldIds) return true;
  let clientId = await capture.worldClientId();
  if (clientId === undefined) {
    await capture.warm();
    clientId = await capture.worldClientId();
  }
  if (clientId === undefined) return caller.clientId === undefined && !caller.key?.worldIds;
  if (caller.clientId !== undefined && caller.clientId !== clientId) return false;
  return !caller.key?.worldIds || caller.key.worldIds.includes(clientId);
}

/**
 * `selected=true` means what the GM has selected, which only the GM's own browser knows: asked of the connected
 * world when there is one; without one the capture page's own selection is used.
 */
async function selectionFromWorld(
  parameters: Fields,
  caller: Caller,
  services: RelayServices,
): Promise<string | undefined> {
  if (parameters.selected !== true) return undefined;
  let world;
  try {
    world = resolveWorld(services.tabletop, caller.clientId, caller.key);
  } catch {
    return undefined;
  }
  const { message } = await services.tabletop.request(world, 'selected', {}, SELECTION_TIMEOUT_MS);
  const first = Array.isArray(message.selected)
    ? (message.selected[0] as { tokenUuid?: string; actorUuid?: string | null } | undefined)
    : undefined;
  const uuid = parameters.actor === true ? first?.actorUuid : first?.tokenUuid;
  if (!uuid) throw new HttpError(400, 'Entity not found');
  return uuid;
}
