/**
 * Where a game's logical board sits in the 64×64 display. Row 0 shows level progress and row 63 the
 * step budget, so the board gets rows 1..62: it is scaled by the largest integer factor that fits and
 * centred, the rest being letterbox.
 */
import { GRID_SIZE } from '../../protocol/index.ts';

/** Rows reserved for the heads-up display: progress on top, budget at the bottom. */
export const PROGRESS_ROW = 0;
export const BUDGET_ROW = GRID_SIZE - 1;
export const PLAY_TOP = 1;
export const PLAY_HEIGHT = GRID_SIZE - 2;

export interface BoardLayout {
  readonly width: number;
  readonly height: number;
  /** Display pixels per logical cell, in both directions. */
  readonly scale: number;
  readonly offsetX: number;
  readonly offsetY: number;
}

export function boardLayout(width: number, height: number): BoardLayout {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`a board must be at least 1×1 cells, got ${width}×${height}`);
  }
  const scale = Math.min(Math.floor(GRID_SIZE / width), Math.floor(PLAY_HEIGHT / height));
  if (scale < 1) {
    throw new RangeError(`a ${width}×${height} board does not fit the ${GRID_SIZE}×${PLAY_HEIGHT} play area; make the level smaller`);
  }
  return {
    width,
    height,
    scale,
    offsetX: Math.floor((GRID_SIZE - width * scale) / 2),
    offsetY: PLAY_TOP + Math.floor((PLAY_HEIGHT - height * scale) / 2),
  };
}

/** The logical cell under display pixel (x, y) as `y * width + x`, or -1 on the letterbox or HUD. */
export function cellAtDisplay(layout: BoardLayout, x: number, y: number): number {
  const dx = x - layout.offsetX;
  const dy = y - layout.offsetY;
  if (dx < 0 || dy < 0) return -1;
  const cx = Math.floor(dx / layout.scale);
  const cy = Math.floor(dy / layout.scale);
  if (cx >= layout.width || cy >= layout.height) return -1;
  return cy * layout.width + cx;
}

/** The display pixel at the centre of a logical cell: where a player or solver clicks it. */
export function displayOfCell(layout: BoardLayout, cx: number, cy: number): { x: number; y: number } {
  const half = Math.floor(layout.scale / 2);
  return { x: layout.offsetX + cx * layout.scale + half, y: layout.offsetY + cy * layout.scale + half };
}
