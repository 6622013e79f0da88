/**
 * Systematic explorer: remembers every state it has seen (by a hash of the grid) and which actions it
 * has tried there, always tries an untried action first, and otherwise walks the shortest known path
 * to the nearest state that still has one, resetting the level when only the level start leads there.
 * Choices are reproducible: the action order comes from the seeded RNG.
 */
import { defineAgent, z, action, click, reset, stop, gridHash, dominantColour, GRID_SIZE, type AgentAction, type FrameResponse, type Grid, type Rng } from 'arcbench';

type EdgeTarget = string | 'dead';

interface StateNode {
  readonly actions: readonly AgentAction[];
  /** Index of each tried action → the state it led to ('dead': it lost the level twice). */
  readonly tried: Map<number, EdgeTarget>;
  readonly losses: Map<number, number>;
  nextUntried: number;
}


function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Display pixels per logical cell, guessed from colour runs that touch neither edge: boards are drawn
 * as scaled blocks, so every inner run length is a multiple of the scale.
 */
function blockScale(grid: Grid, rows: readonly number[]): number {
  let scale = 0;
  for (const y of rows) {
    let start = 0;
    for (let x = 1; x <= GRID_SIZE; x++) {
      if (x === GRID_SIZE || grid[y * GRID_SIZE + x] !== grid[y * GRID_SIZE + start]) {
        if (start > 0 && x < GRID_SIZE) scale = gcd(scale, x - start);
        start = x;
      }
    }
  }
  return Math.max(1, scale);
}

/** Click targets: the centre of every block inside the bounding box of non-background content. */
function clickTargets(grid: Grid, rows: readonly number[], limit: number, rng: Rng): AgentAction[] {
  const background = dominantColour(grid);
  let minX = GRID_SIZE, minY = GRID_SIZE, maxX = -1, maxY = -1;
  for (const y of rows) {
    for (let x = 0; x < GRID_SIZE; x++) {
      if (grid[y * GRID_SIZE + x] === background) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return [];
  const scale = blockScale(grid, rows);
  const half = Math.floor(scale / 2);
  const foreground: AgentAction[] = [];
  const backgroundCells: AgentAction[] = [];
  for (let y = minY; y <= maxY; y += scale) {
    for (let x = minX; x <= maxX; x += scale) {
      const cx = Math.min(x + half, GRID_SIZE - 1);
      const cy = Math.min(y + half, GRID_SIZE - 1);
      (grid[cy * GRID_SIZE + cx] === background ? backgroundCells : foreground).push(click(cx, cy));
    }
  }
  // Non-background blocks first (they are what a click usually changes), each group in seeded order.
  return [...shuffle(foreground, rng), ...shuffle(backgroundCells, rng)].slice(0, limit);
}

function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export default defineAgent({
  name: 'explorer',
  description: 'Remembers states by grid hash, prefers untried actions, walks (or resets) back to unexplored states.',
  params: z.strictObject({
    ignore_rows: z
      .array(z.int().min(0).max(63))
      .default([0, 63])
      .describe('Display rows left out of the state hash: HUD rows (progress, step budget) would make every state look new.'),
    max_clicks: z.int().min(0).max(4096).default(64).describe('Click targets tried per state.'),
    use_undo: z.boolean().default(false).describe('Explore ACTION7 too; off by default, since what undo does depends on history, not on the state.'),
  }),
  create({ params, rng }) {
    const ignored = new Set(params.ignore_rows);
    const rows = Array.from({ length: GRID_SIZE }, (_, y) => y).filter((y) => !ignored.has(y));
    const scratch = new Uint8Array(GRID_SIZE * GRID_SIZE);

    let graph = new Map<string, StateNode>();
    let root = '';
    let level = -1;
    let pending: { from: string; index: number } | undefined;
    let path: Array<{ at: string; index: number }> = [];

    const stateKey = (frame: FrameResponse): string => {
      scratch.set(frame.frame[frame.frame.length - 1]);
      for (const y of ignored) scratch.fill(0, y * GRID_SIZE, (y + 1) * GRID_SIZE);
      return `${frame.levels_completed}:${gridHash(scratch)}`;
    };

    const nodeFor = (key: string, frame: FrameResponse): StateNode => {
      let node = graph.get(key);
      if (node !== undefined) return node;
      const keys = frame.available_actions.filter((id) => id >= 1 && id <= 5 || (id === 7 && params.use_undo)) as Array<1 | 2 | 3 | 4 | 5 | 7>;
      const clicks = frame.available_actions.includes(6) ? clickTargets(frame.frame[frame.frame.length - 1], rows, params.max_clicks, rng) : [];
      node = { actions: [...shuffle(keys.map((id) => action(id)), rng), ...clicks], tried: new Map(), losses: new Map(), nextUntried: 0 };
      graph.set(key, node);
      return node;
    };

    const hasUntried = (node: StateNode): boolean => {
      while (node.nextUntried < node.actions.length && node.tried.has(node.nextUntried)) node.nextUntried++;
      return node.nextUntried < node.actions.length;
    };

    /** Shortest known path from `start` to a state with an untried action (breadth-first over tried edges). */
    const pathToFrontier = (start: string): Array<{ at: string; index: number }> | undefined => {
      const previous = new Map<string, { at: string; index: number } | null>([[start, null]]);
      const queue = [start];
      for (let head = 0; head < queue.length; head++) {
        const at = queue[head];
        const node = graph.get(at);
        if (node === undefined) continue;
        if (hasUntried(node)) {
          const steps: Array<{ at: string; index: number }> = [];
          for (let step = previous.get(at); step; step = previous.get(step.at)) steps.unshift(step);
          return steps;
        }
        for (const [index, target] of node.tried) {
          if (target === 'dead' || previous.has(target)) continue;
          previous.set(target, { at, index });
          queue.push(target);
        }
      }
      return undefined;
    };

    const take = (from: string, node: StateNode, index: number): AgentAction => {
      pending = { from, index };
      return node.actions[index];
    };

    return {
      act(frame) {
        const key = stateKey(frame);
        if (frame.levels_completed !== level) {
          // A new level (or the first frame): what was learned about the last one no longer applies.
          level = frame.levels_completed;
          graph = new Map();
          root = key;
          pending = undefined;
          path = [];
        }
        if (pending !== undefined) {
          const from = graph.get(pending.from)!;
          if (frame.state === 'GAME_OVER') {
            // A loss may be the level's step budget rather than the move: only a second loss rules it out.
            const losses = (from.losses.get(pending.index) ?? 0) + 1;
            from.losses.set(pending.index, losses);
            if (losses >= 2) from.tried.set(pending.index, 'dead');
          } else {
            from.tried.set(pending.index, key);
          }
          pending = undefined;
        }
        if (frame.state === 'GAME_OVER') {
          path = [];
          return reset('level lost: back to its start');
        }
        const node = nodeFor(key, frame);

        if (path.length > 0 && path[0].at === key) {
          const step = path.shift()!;
          return take(key, node, step.index);
        }
        path = [];
        if (hasUntried(node)) return take(key, node, node.nextUntried);

        const route = pathToFrontier(key);
        if (route !== undefined && route.length > 0) {
          path = route;
          const step = path.shift()!;
          return take(key, node, step.index);
        }
        if (key !== root && pathToFrontier(root) !== undefined) return reset('walk back from the level start');
        return stop('explored every reachable state of this level', { level: frame.levels_completed, states: graph.size });
      },
    };
  },
});
