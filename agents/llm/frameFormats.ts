/**
 * The `frame_format` param: how the current grid goes into a turn's message.
 *   text   the whole grid as hex digits, letterbox cropped (frameText.ts)
 *   diff   the cells that changed since the frame the model saw last (frameDiff.ts); the whole grid
 *          when the model has no earlier frame in view or when the diff would be the longer text
 *   image  a PNG of the grid for vision models, each cell a square of IMAGE_SCALE pixels
 */
import { gridToPng, type Grid } from 'arcbench';
import { encodeGridDiff } from './frameDiff.ts';
import { encodeGridText } from './frameText.ts';

export const FRAME_FORMATS = ['text', 'diff', 'image'] as const;
export type FrameFormat = (typeof FRAME_FORMATS)[number];

/** 8 pixels a cell: a 512×512 image, which vision models take without downscaling it. */
export const IMAGE_SCALE = 8;

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } };

/**
 * The frame as message parts. `previous` is the grid of the last frame the model still has in view
 * (undefined at the start and after older turns were summarised): a diff needs it to mean anything.
 */
export function frameParts(format: FrameFormat, grid: Grid, previous: Grid | undefined): ContentPart[] {
  if (format === 'image') {
    const png = gridToPng(grid, IMAGE_SCALE);
    return [
      {
        type: 'text',
        text: `Frame: the image below, 64x64 cells of ${IMAGE_SCALE}x${IMAGE_SCALE} pixels; cell (x, y) counts from the top-left, x to the right, y down.`,
      },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}`, detail: 'high' } },
    ];
  }
  const whole = encodeGridText(grid);
  if (format === 'diff' && previous !== undefined) {
    const diff = encodeGridDiff(previous, grid);
    if (diff.length < whole.length) return [{ type: 'text', text: `Frame, as the change from the previous frame:\n${diff}` }];
  }
  return [{ type: 'text', text: `Frame:\n${whole}` }];
}
