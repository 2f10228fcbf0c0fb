// Draws a scene as the canvas would show it, from its data: a background tinted per scene, the grid, walls, lights
// and tokens. Paints only the requested window of the scene (scene pixels), so a crop costs no more than its size.
import type { WorldDocument } from '../world/document.ts';
import type { PlainObject } from '../world/objects.ts';
import { Raster, type Colour } from './raster.ts';

export interface SceneWindow {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface SceneLayers {
  grid: boolean;
  placeables: boolean;
}

const GRID_LINE: Colour = [40, 40, 40];
const WALL: Colour = [20, 20, 24];
const LIGHT: Colour = [255, 214, 120];
const DISPOSITION_COLOURS: Record<number, Colour> = { 1: [52, 120, 220], 0: [230, 190, 60], [-1]: [200, 50, 50] };

function tintOf(name: string): Colour {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return [90 + (hash % 90), 90 + ((hash >> 8) % 80), 60 + ((hash >> 16) % 70)];
}

export function paintScene(scene: WorldDocument, window: SceneWindow, layers: SceneLayers): Raster {
  const tint = tintOf(scene.name || scene.id);
  const raster = new Raster(window.width, window.height, tint);
  const rect = (x: number, y: number, w: number, h: number, colour: Colour) =>
    raster.fillRect(x - window.x, y - window.y, w, h, colour);
  const darker: Colour = [tint[0] * 0.7, tint[1] * 0.7, tint[2] * 0.7].map(Math.round) as unknown as Colour;
  raster.fillGradient(0, 0, window.width, window.height, tint, darker);
  const size = ((scene.source.grid as PlainObject | undefined)?.size as number) || 100;
  if (layers.grid) paintGrid(rect, window, size);
  if (!layers.placeables) return raster;
  for (const wall of scene.collection('Wall').contents) paintWall(rect, wall.source.c as number[]);
  for (const light of scene.collection('AmbientLight').contents)
    rect((light.source.x as number) - 12, (light.source.y as number) - 12, 24, 24, LIGHT);
  for (const token of scene.collection('Token').contents.filter((candidate) => !candidate.source.hidden)) {
    const colour = DISPOSITION_COLOURS[token.source.disposition as number] ?? DISPOSITION_COLOURS[0]!;
    const width = ((token.source.width as number) || 1) * size;
    const height = ((token.source.height as number) || 1) * size;
    rect((token.source.x as number) + 6, (token.source.y as number) + 6, width - 12, height - 12, colour);
  }
  return raster;
}

type RectPainter = (x: number, y: number, w: number, h: number, colour: Colour) => void;

function paintGrid(rect: RectPainter, window: SceneWindow, size: number): void {
  for (let x = Math.floor(window.x / size) * size; x < window.x + window.width; x += size)
    rect(x, window.y, 1, window.height, GRID_LINE);
  for (let y = Math.floor(window.y / size) * size; y < window.y + window.height; y += size)
    rect(window.x, y, window.width, 1, GRID_LINE);
}

/** A wall segment drawn as small squares along its length. */
function paintWall(rect: RectPainter, c: number[] | undefined): void {
  if (!c || c.length < 4) return;
  const [x1, y1, x2, y2] = c as [number, number, number, number];
  const steps = Math.max(1, Math.ceil(Math.hypot(x2 - x1, y2 - y1) / 4));
  for (let step = 0; step <= steps; step++)
    rect(x1 + ((x2 - x1) * step) / steps - 3, y1 + ((y2 - y1) * step) / steps - 3, 6, 6, WALL);
}
