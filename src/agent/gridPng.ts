/** A grid as a PNG image in the docs/protocol.md §1 palette, each cell a `scale`×`scale` square of pixels. */
import { PNG } from 'pngjs';
import { GRID_SIZE, PALETTE_RGB, type Grid } from '../protocol/index.ts';

export function gridToPng(grid: Grid, scale: number): Buffer {
  if (!Number.isInteger(scale) || scale < 1 || scale > 64) throw new RangeError(`scale must be a whole number from 1 to 64, got ${scale}`);
  const side = GRID_SIZE * scale;
  const png = new PNG({ width: side, height: side });
  for (let py = 0; py < side; py++) {
    const row = Math.floor(py / scale) * GRID_SIZE;
    for (let px = 0; px < side; px++) {
      const [r, g, b] = PALETTE_RGB[grid[row + Math.floor(px / scale)]!]!;
      const at = (py * side + px) * 4;
      png.data[at] = r;
      png.data[at + 1] = g;
      png.data[at + 2] = b;
      png.data[at + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
