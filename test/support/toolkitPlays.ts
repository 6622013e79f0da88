/**
 * Action lists for the toolkit's two test games, and what the toolkit's own local environment answers to
 * them (test/support/toolkitLocalPlay.py): the reference every official-game fidelity test compares with.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { encodeHexGrid } from '../../src/protocol/hexGrid.ts';
import type { FrameResponse } from '../../src/protocol/index.ts';
import { REAL_ARCENGINE, REAL_TOOLKIT } from './officialCode.ts';

export const TOOLKIT_GAMES_DIR = join(REAL_TOOLKIT, 'test_environment_files');
export const ENGINE_ENV = { ...process.env, PYTHONPATH: REAL_ARCENGINE };
export const TOOLKIT_SEED = 0;
export type Step = [id: number, x: number, y: number];

const repeat = (id: number, times: number, x = 0, y = 0): Step[] => Array.from({ length: times }, () => [id, x, y]);
/** Completes levels, resets a level midway, loses one, resets after the loss, wins, and starts over (id 0: RESET). */
export const PLAYS: Record<string, Step[]> = {
  bt11: [
    ...repeat(3, 4),
    [3, 0, 0],
    [4, 0, 0],
    [0, 0, 0],
    ...repeat(3, 8),
    ...repeat(4, 16),
    [0, 0, 0],
    ...repeat(3, 16),
    ...repeat(3, 20),
    ...repeat(3, 24),
    [0, 0, 0],
    [4, 0, 0],
  ],
  bt33: [...repeat(6, 4), [6, 60, 2], [6, 30, 30], [0, 0, 0], ...repeat(6, 3), [6, 63, 63], ...repeat(6, 5), [0, 0, 0], [0, 0, 0], [6, 0, 0]],
};

export interface ToolkitFrame {
  frame: string[];
  state: string;
  levels_completed: number;
  win_levels: number;
  available_actions: number[];
  full_reset: boolean;
}

export interface ToolkitAnswer {
  frames: Record<string, ToolkitFrame[]>;
  scorecard: {
    score: number;
    environments: { id: string; score: number; runs: { score: number; level_scores: number[]; actions: number; resets: number; state: string }[] }[];
  };
}

/**
 * The toolkit's own local environment plays `plays` (each game on one card, from `seed`); with `url`, the
 * toolkit's Arcade plays them as a client of that service.
 */
export function toolkitPlay(plays: Record<string, Step[]> = PLAYS, seed = TOOLKIT_SEED, url?: string): ToolkitAnswer {
  const request = { dir: TOOLKIT_GAMES_DIR, seed, plays: Object.entries(plays).map(([game, actions]) => ({ game, actions })), ...(url ? { url } : {}) };
  const out = execFileSync('python3', [join(import.meta.dirname, 'toolkitLocalPlay.py')], {
    input: JSON.stringify(request),
    env: { ...process.env, PYTHONPATH: `${REAL_ARCENGINE}:${REAL_TOOLKIT}` },
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return JSON.parse(out) as ToolkitAnswer;
}

/** A frame response as the toolkit driver writes its frames. */
export function asToolkitFrame(response: Pick<FrameResponse, 'frame' | 'state' | 'levels_completed' | 'win_levels' | 'available_actions' | 'full_reset'>) {
  return {
    frame: response.frame.map(encodeHexGrid),
    state: response.state,
    levels_completed: response.levels_completed,
    win_levels: response.win_levels,
    available_actions: response.available_actions,
    full_reset: response.full_reset,
  };
}
