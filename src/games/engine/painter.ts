/**
 * Keeps the display of one play up to date. Games draw their board into a small array of logical cells;
 * the painter copies only the cells that changed since the last paint into the 64×64 grid, so a step
 * costs a few cells, not 4096 writes.
 */
import { GRID_SIZE, createGrid, type Grid } from '../../protocol/index.ts';
import { BUDGET_ROW, PROGRESS_ROW, type BoardLayout } from './layout.ts';

/** HUD colours (docs/protocol.md §1 palette indices). */
const DONE_COLOUR = 14;
const CURRENT_COLOUR = 11;
const TODO_COLOUR = 3;
const BUDGET_COLOUR = 9;
const BUDGET_LOW_COLOUR = 12;
const BUDGET_USED_COLOUR = 4;
const LOST_COLOUR = 8;

export class Painter {
  readonly display: Grid;
  /** What the board should look like, written by the game's draw. */
  readonly cells: Uint8Array;
  /** What the display currently shows for each cell; 255 forces a repaint. */
  private readonly painted: Uint8Array;

  constructor(
    readonly layout: BoardLayout,
    private readonly letterbox: number,
  ) {
    this.display = createGrid(letterbox);
    this.cells = new Uint8Array(layout.width * layout.height);
    this.painted = new Uint8Array(layout.width * layout.height).fill(255);
  }

  /** Copies changed cells into the display. */
  paintBoard(): void {
    const { width, height, scale, offsetX, offsetY } = this.layout;
    const cells = this.cells;
    const painted = this.painted;
    const display = this.display;
    for (let cy = 0, i = 0; cy < height; cy++) {
      for (let cx = 0; cx < width; cx++, i++) {
        const colour = cells[i]!;
        if (painted[i] === colour) continue;
        painted[i] = colour;
        let row = (offsetY + cy * scale) * GRID_SIZE + offsetX + cx * scale;
        for (let r = 0; r < scale; r++, row += GRID_SIZE) {
          for (let c = 0; c < scale; c++) display[row + c] = colour;
        }
      }
    }
  }

  /** What the progress row shows now, so an unchanged row is not repainted every step. */
  private progressShown = -1;

  /** Top row: one segment per level, green when done, yellow for the current one, grey ahead. */
  paintProgress(levelIndex: number, levelCount: number, allDone: boolean): void {
    const shown = allDone ? levelCount : levelIndex;
    if (shown === this.progressShown) return;
    this.progressShown = shown;
    const display = this.display;
    const base = PROGRESS_ROW * GRID_SIZE;
    display.fill(this.letterbox, base, base + GRID_SIZE);
    const segment = Math.floor(GRID_SIZE / levelCount);
    for (let level = 0; level < levelCount; level++) {
      const colour = allDone || level < levelIndex ? DONE_COLOUR : level === levelIndex ? CURRENT_COLOUR : TODO_COLOUR;
      // one pixel of gap between segments so they can be counted
      const start = base + level * segment;
      display.fill(colour, start, start + Math.max(1, segment - 1));
    }
  }

  /** Bottom row: the remaining budget as a bar from the left; all red once the level is lost. */
  paintBudget(stepsTaken: number, budget: number, lost: boolean): void {
    const display = this.display;
    const base = BUDGET_ROW * GRID_SIZE;
    if (lost) {
      display.fill(LOST_COLOUR, base, base + GRID_SIZE);
      return;
    }
    const remaining = Math.max(0, budget - stepsTaken);
    const filled = Math.ceil((remaining * GRID_SIZE) / budget);
    const colour = remaining * 4 <= budget ? BUDGET_LOW_COLOUR : BUDGET_COLOUR;
    display.fill(colour, base, base + filled);
    display.fill(BUDGET_USED_COLOUR, base + filled, base + GRID_SIZE);
  }
}
