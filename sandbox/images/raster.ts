// An RGBA pixel buffer with the few drawing primitives the sheet painter needs.

export type Colour = readonly [r: number, g: number, b: number];

export class Raster {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;

  constructor(width: number, height: number, background: Colour) {
    this.width = width;
    this.height = height;
    this.pixels = new Uint8Array(width * height * 4);
    this.fillRect(0, 0, width, height, background);
  }

  fillRect(x: number, y: number, width: number, height: number, colour: Colour): void {
    const left = Math.max(0, Math.round(x));
    const top = Math.max(0, Math.round(y));
    const right = Math.min(this.width, Math.round(x + width));
    const bottom = Math.min(this.height, Math.round(y + height));
    for (let row = top; row < bottom; row++) {
      for (let column = left; column < right; column++) {
        const offset = (row * this.width + column) * 4;
        this.pixels[offset] = colour[0];
        this.pixels[offset + 1] = colour[1];
        this.pixels[offset + 2] = colour[2];
        this.pixels[offset + 3] = 255;
      }
    }
  }

  /** Vertical gradient, used for the sheet's header band. */
  fillGradient(x: number, y: number, width: number, height: number, from: Colour, to: Colour): void {
    const steps = Math.max(1, Math.round(height));
    for (let step = 0; step < steps; step++) {
      const t = step / steps;
      const colour: Colour = [0, 1, 2].map((i) => Math.round(from[i]! + (to[i]! - from[i]!) * t)) as unknown as Colour;
      this.fillRect(x, y + (height * step) / steps, width, height / steps + 1, colour);
    }
  }
}
