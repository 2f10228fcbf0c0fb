// sheet-screenshot (module-operations.md §7): a generated image of the document's sheet, sized box × scale.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { dataUrl } from '../images/encoding.ts';
import { encodeJpeg } from '../images/jpeg.ts';
import { encodePng } from '../images/png.ts';
import { paintSheet, sheetBoxOf } from '../images/sheet-painter.ts';
import { OWNERSHIP, type WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { hasPermission } from '../world/permissions.ts';
import { reply, requestUser, type OperationTable } from './context.ts';

/** Documents Foundry renders no sheet for. */
const WITHOUT_SHEET = new Set(['ChatMessage', 'Combat']);

function targetOf(game: Game, request: WorldRequest): WorldDocument | null {
  if (request.uuid) return game.fromUuid(String(request.uuid));
  if (!request.selected) return null;
  const scene = game.viewedScene();
  const token = scene
    ?.collection('Token')
    .contents.find((candidate) => game.canvas.controlledTokenIds.has(candidate.id));
  if (!token) return null;
  return request.actor ? game.tokenActor(token) : token;
}

async function capture(target: WorldDocument, format: unknown, quality: number, scale: number) {
  const raster = paintSheet(target, sheetBoxOf(target), scale);
  const jpeg = format === 'jpeg';
  const mimeType = jpeg ? 'image/jpeg' : 'image/png';
  const bytes = jpeg ? encodeJpeg(raster, quality) : await encodePng(raster);
  return { imageData: dataUrl(mimeType, bytes), mimeType, width: raster.width, height: raster.height };
}

export const sheetOperations: OperationTable = {
  'sheet-screenshot': async (request, { game }) => {
    const resolved = requestUser(request, game);
    if ('refusal' in resolved) return resolved.refusal;
    const target = targetOf(game, request);
    const { user } = resolved;
    if (user && target && !hasPermission(game, target, user, OWNERSHIP.OBSERVER)) {
      return reply(request, {
        success: false,
        error: `User '${user.name}' does not have permission to view this sheet`,
      });
    }
    if (!target) return reply(request, { success: false, error: 'Entity not found' });
    if (WITHOUT_SHEET.has(target.documentName)) return reply(request, { success: false, error: 'Actor has no sheet' });
    const scale = Number(request.scale) || 1;
    const quality = typeof request.quality === 'number' ? request.quality : 0.9;
    try {
      return reply(request, { success: true, ...(await capture(target, request.format, quality, scale)) });
    } catch {
      return reply(request, { success: false, error: 'Failed to capture sheet screenshot' });
    }
  },
};
