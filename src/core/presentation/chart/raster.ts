/** A palette-indexed pixel grid with the few drawing operations a line chart needs. Nothing is anti-aliased. */

export interface Rect {
  x0: number;
  y0: number;
  /** Inclusive. */
  x1: number;
  /** Inclusive. */
  y1: number;
}

export class Raster {
  readonly pixels: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background = 0,
  ) {
    this.pixels = new Uint8Array(width * height).fill(background);
  }

  /** Sets one pixel; outside the image (or outside `clip`) nothing happens. */
  set(x: number, y: number, color: number, clip?: Rect): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    if (clip && (x < clip.x0 || x > clip.x1 || y < clip.y0 || y > clip.y1)) return;
    this.pixels[y * this.width + x] = color;
  }

  get(x: number, y: number): number | undefined {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return undefined;
    return this.pixels[y * this.width + x];
  }

  fillRect(x0: number, y0: number, x1: number, y1: number, color: number): void {
    for (let y = Math.max(0, y0); y <= Math.min(this.height - 1, y1); y++) {
      for (let x = Math.max(0, x0); x <= Math.min(this.width - 1, x1); x++)
        this.pixels[y * this.width + x] = color;
    }
  }

  hline(x0: number, x1: number, y: number, color: number, dash = 0): void {
    for (let x = x0; x <= x1; x++)
      if (dash === 0 || Math.floor((x - x0) / dash) % 2 === 0) this.set(x, y, color);
  }

  vline(x: number, y0: number, y1: number, color: number, dash = 0): void {
    for (let y = y0; y <= y1; y++)
      if (dash === 0 || Math.floor((y - y0) / dash) % 2 === 0) this.set(x, y, color);
  }

  /** Bresenham's line with a square brush of `thickness` pixels (the brush grows right and down). */
  line(x0: number, y0: number, x1: number, y1: number, color: number, thickness = 1, clip?: Rect): void {
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    let x = x0;
    let y = y0;
    for (;;) {
      this.brush(x, y, color, thickness, clip);
      if (x === x1 && y === y1) return;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y += sy;
      }
    }
  }

  brush(x: number, y: number, color: number, size: number, clip?: Rect): void {
    for (let j = 0; j < size; j++) for (let i = 0; i < size; i++) this.set(x + i, y + j, color, clip);
  }
}
