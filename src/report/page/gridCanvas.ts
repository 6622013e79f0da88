/** Draws a 64×64 grid on a canvas in the palette of docs/protocol.md §1, and marks a click on it. */
import { GRID_SIZE, PALETTE_RGB } from '../../protocol/grid.ts';

/** Canvas pixels per grid cell: 64 cells make a 512-pixel square, scaled by CSS to fit. */
export const CELL_PIXELS = 8;
const SIZE = GRID_SIZE * CELL_PIXELS;

export class GridCanvas {
  readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D;
  /** The grid at one pixel per cell, scaled up without smoothing. */
  private readonly cells: HTMLCanvasElement;
  private readonly cellContext: CanvasRenderingContext2D;
  private readonly image: ImageData;

  constructor() {
    this.canvas = Object.assign(document.createElement('canvas'), { width: SIZE, height: SIZE });
    this.context = this.canvas.getContext('2d')!;
    this.cells = Object.assign(document.createElement('canvas'), { width: GRID_SIZE, height: GRID_SIZE });
    this.cellContext = this.cells.getContext('2d')!;
    this.image = this.cellContext.createImageData(GRID_SIZE, GRID_SIZE);
  }

  draw(grid: Uint8Array, click: { x: number; y: number } | null): void {
    const pixels = this.image.data;
    for (let i = 0; i < grid.length; i++) {
      const [r, g, b] = PALETTE_RGB[grid[i]!] ?? [0, 0, 0];
      pixels[i * 4] = r;
      pixels[i * 4 + 1] = g;
      pixels[i * 4 + 2] = b;
      pixels[i * 4 + 3] = 255;
    }
    this.cellContext.putImageData(this.image, 0, 0);
    this.context.imageSmoothingEnabled = false;
    this.context.drawImage(this.cells, 0, 0, SIZE, SIZE);
    if (click !== null) this.markClick(click.x, click.y);
  }

  /**
   * A ring around the clicked cell, short ticks towards it, and the cell's own outline, in black over
   * white so it shows on any colour. At the grid's edge (x or y 0 or 63) the ring and the ticks on that
   * side fall off the canvas; the outline, inside the cell, is always whole.
   */
  private markClick(x: number, y: number): void {
    const cx = (x + 0.5) * CELL_PIXELS;
    const cy = (y + 0.5) * CELL_PIXELS;
    const ctx = this.context;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(x * CELL_PIXELS, y * CELL_PIXELS, CELL_PIXELS, CELL_PIXELS);
    ctx.fillStyle = '#000000';
    ctx.fillRect(x * CELL_PIXELS + 2, y * CELL_PIXELS + 2, CELL_PIXELS - 4, CELL_PIXELS - 4);
    for (const [colour, width] of [
      ['#ffffff', 5],
      ['#000000', 2],
    ] as const) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.arc(cx, cy, CELL_PIXELS * 1.6, 0, Math.PI * 2);
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        ctx.moveTo(cx + dx * CELL_PIXELS * 2.2, cy + dy * CELL_PIXELS * 2.2);
        ctx.lineTo(cx + dx * CELL_PIXELS * 3.4, cy + dy * CELL_PIXELS * 3.4);
      }
      ctx.stroke();
    }
  }
}
