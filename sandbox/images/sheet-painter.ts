// Draws a document "sheet" from its data: a header band tinted per document, a portrait, ability bars,
// a hit-point bar and one row per embedded item and effect. Coordinates are CSS pixels, multiplied by `scale`.
import type { WorldDocument } from '../world/document.ts';
import { getProperty } from '../world/objects.ts';
import { Raster, type Colour } from './raster.ts';

export interface SheetBox {
  width: number;
  height: number;
}

/** CSS size of each document type's sheet window. */
export function sheetBoxOf(document: WorldDocument): SheetBox {
  if (document.documentName === 'Actor')
    return document.type === 'character' ? { width: 720, height: 800 } : { width: 600, height: 700 };
  if (document.documentName === 'Item') return { width: 560, height: 480 };
  if (document.documentName === 'JournalEntry') return { width: 600, height: 680 };
  if (document.documentName === 'Token') return { width: 560, height: 640 };
  return { width: 480, height: 560 };
}

const PAPER: Colour = [245, 239, 226];
const INK: Colour = [58, 48, 40];
const RULE: Colour = [214, 201, 178];

function tintOf(name: string): Colour {
  let hash = 0;
  for (const char of name) hash = (hash * 33 + char.charCodeAt(0)) >>> 0;
  return [70 + (hash % 140), 40 + ((hash >> 8) % 120), 50 + ((hash >> 16) % 140)];
}

function darker(colour: Colour): Colour {
  return [colour[0] * 0.55, colour[1] * 0.55, colour[2] * 0.55].map(Math.round) as unknown as Colour;
}

export function paintSheet(document: WorldDocument, box: SheetBox, scale: number): Raster {
  const raster = new Raster(Math.round(box.width * scale), Math.round(box.height * scale), PAPER);
  const rect = (x: number, y: number, w: number, h: number, colour: Colour) =>
    raster.fillRect(x * scale, y * scale, w * scale, h * scale, colour);
  const tint = tintOf(document.name || document.id);
  raster.fillGradient(0, 0, raster.width, 110 * scale, tint, darker(tint));
  rect(20, 15, 80, 80, PAPER);
  rect(24, 19, 72, 72, darker(tint));
  rect(120, 35, Math.min(box.width - 160, 12 * document.name.length), 18, PAPER);
  rect(120, 65, 160, 8, RULE);
  let y = 130;
  y = paintAbilities(document, rect, y, box.width);
  y = paintHitPoints(document, rect, y, box.width);
  paintRows(document, rect, y, box, tint);
  return raster;
}

type RectPainter = (x: number, y: number, w: number, h: number, colour: Colour) => void;

function paintAbilities(document: WorldDocument, rect: RectPainter, y: number, width: number): number {
  const abilities = getProperty(document.source, 'system.abilities') as Record<string, { value?: number }> | undefined;
  if (!abilities) return y;
  const entries = Object.values(abilities);
  const slot = (width - 40) / Math.max(entries.length, 1);
  entries.forEach((ability, i) => {
    const value = Math.max(0, Math.min(30, ability.value ?? 10));
    rect(20 + i * slot + 6, y, slot - 12, 70, RULE);
    rect(20 + i * slot + 12, y + 70 - (value / 30) * 64, slot - 24, (value / 30) * 64, INK);
  });
  return y + 90;
}

function paintHitPoints(document: WorldDocument, rect: RectPainter, y: number, width: number): number {
  const hp = getProperty(document.source, 'system.attributes.hp') as { value?: number; max?: number } | undefined;
  if (!hp?.max) return y;
  const fraction = Math.max(0, Math.min(1, (hp.value ?? 0) / hp.max));
  rect(20, y, width - 40, 16, RULE);
  rect(20, y, (width - 40) * fraction, 16, [168, 40, 40]);
  return y + 36;
}

function paintRows(document: WorldDocument, rect: RectPainter, y: number, box: SheetBox, tint: Colour): void {
  const rows = [
    ...(document.embedded.get('Item')?.values() ?? []),
    ...(document.embedded.get('ActiveEffect')?.values() ?? []),
  ];
  for (const row of rows) {
    if (y + 34 > box.height - 20) return;
    rect(20, y, box.width - 40, 30, RULE);
    rect(26, y + 4, 22, 22, row.documentName === 'ActiveEffect' ? tint : INK);
    rect(58, y + 10, Math.min(box.width - 100, 9 * row.name.length), 10, INK);
    y += 36;
  }
}
