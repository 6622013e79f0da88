/**
 * Systematic explorer: remembers every state it has seen (by a hash of the grid) and which actions it
 * has tried there, always tries an untried action first, and otherwise walks the shortest known path
 * to the nearest state that still has one, resetting the level when only the level start leads there.
 * Choices are reproducible: the action order comes from the seeded RNG.
 */
import {
  defineAgent,
  z,
  action,
  click,
  reset,
  stop,
  gridHash,
  dominantColour,
  latestGrid,
  CLICK_ACTION_ID,
  UNDO_ACTION_ID,
  GRID_SIZE,
  type AgentAction,
  type AgentDecision,
  type FrameResponse,
  type Grid,
  type Rng,
} from 'arcbench';

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
  let minX = GRID_SIZE,
    minY = GRID_SIZE,
    maxX = -1,
    maxY = -1;
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
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

interface ExplorerSettings {
  /** Display rows that count for the state (HUD rows left out). */
  readonly rows: readonly number[];
  readonly maxClicks: number;
  readonly useUndo: boolean;
  readonly rng: Rng;
}

type Step = { readonly at: string; readonly index: number };

/** A LevelMap as JSON, for the agent's snapshot(): a run killed mid-episode goes on with what it knew. */
interface SavedLevelMap {
  readonly level: number;
  readonly root: string;
  readonly pending: Step | null;
  readonly path: readonly Step[];
  readonly states: readonly {
    readonly key: string;
    /** Each action as one number (actionCode): a snapshot is written after every step, and states hold up to 64 clicks. */
    readonly actions: readonly number[];
    readonly tried: readonly [number, EdgeTarget][];
    readonly losses: readonly [number, number][];
    readonly nextUntried: number;
  }[];
}

interface SavedExplorer {
  readonly rng: number;
  readonly map: SavedLevelMap | null;
}

/** An action as one number: its id in the low 3 bits, a click's x and y (0..63) above (reasoning is never set by this agent). */
function actionCode(a: AgentAction): number {
  return a.id === CLICK_ACTION_ID ? a.id | (a.x << 3) | (a.y << 9) : a.id;
}

function actionFromCode(code: number): AgentAction {
  const id = code & 7;
  if (id === 0) return reset();
  if (id === CLICK_ACTION_ID) return click((code >> 3) & 63, (code >> 9) & 63);
  return action(id as Exclude<AgentAction['id'], 0 | typeof CLICK_ACTION_ID>);
}

/**
 * What the explorer knows of one level: the states seen, the actions tried in each and where they led.
 * A new level starts a new map, since states of the last level no longer apply.
 */
class LevelMap {
  readonly #graph = new Map<string, StateNode>();
  /** The state the level started in, where a RESET leads back to. */
  readonly #root: string;
  /** The action just sent, whose result the next frame shows. */
  #pending: Step | undefined;
  /** The rest of a walk towards a state with an untried action. */
  #path: Step[] = [];

  constructor(
    readonly level: number,
    root: string,
    private readonly settings: ExplorerSettings,
  ) {
    this.#root = root;
  }

  /** Notes where the pending action led: to `key`, or to a loss. */
  learn(key: string, lost: boolean): void {
    if (this.#pending === undefined) return;
    const from = this.#graph.get(this.#pending.at)!;
    const { index } = this.#pending;
    this.#pending = undefined;
    if (!lost) {
      from.tried.set(index, key);
      return;
    }
    // A loss may be the level's step budget rather than the move: only a second loss rules it out.
    const losses = (from.losses.get(index) ?? 0) + 1;
    from.losses.set(index, losses);
    if (losses >= 2) from.tried.set(index, 'dead');
  }

  /** The next move from state `key`: an untried action, a step towards one, a RESET, or stop. */
  next(key: string, frame: FrameResponse): AgentDecision {
    const node = this.#nodeFor(key, frame);
    const walking = this.#path[0];
    if (walking !== undefined && walking.at === key) return this.#take(key, node, this.#path.shift()!.index);
    this.#path = [];
    if (this.#hasUntried(node)) return this.#take(key, node, node.nextUntried);
    const route = this.#pathToFrontier(key);
    if (route !== undefined && route.length > 0) {
      this.#path = route;
      return this.#take(key, node, this.#path.shift()!.index);
    }
    if (key !== this.#root && this.#pathToFrontier(this.#root) !== undefined) return reset('walk back from the level start');
    return stop('explored every reachable state of this level', { level: this.level, states: this.#graph.size });
  }

  saved(): SavedLevelMap {
    return {
      level: this.level,
      root: this.#root,
      pending: this.#pending ?? null,
      path: [...this.#path],
      states: [...this.#graph].map(([key, node]) => ({
        key,
        actions: node.actions.map(actionCode),
        tried: [...node.tried],
        losses: [...node.losses],
        nextUntried: node.nextUntried,
      })),
    };
  }

  static fromSaved(saved: SavedLevelMap, settings: ExplorerSettings): LevelMap {
    const map = new LevelMap(saved.level, saved.root, settings);
    map.#pending = saved.pending ?? undefined;
    map.#path = [...saved.path];
    for (const state of saved.states) {
      map.#graph.set(state.key, {
        actions: state.actions.map(actionFromCode),
        tried: new Map(state.tried),
        losses: new Map(state.losses),
        nextUntried: state.nextUntried,
      });
    }
    return map;
  }

  /** After a loss the walk is void: the level starts over. */
  forgetWalk(): void {
    this.#path = [];
  }

  #nodeFor(key: string, frame: FrameResponse): StateNode {
    let node = this.#graph.get(key);
    if (node !== undefined) return node;
    const { rng, useUndo, rows, maxClicks } = this.settings;
    const keys = frame.available_actions.flatMap((id) => (id === CLICK_ACTION_ID || (id === UNDO_ACTION_ID && !useUndo) ? [] : [action(id)]));
    const clicks = frame.available_actions.includes(CLICK_ACTION_ID) ? clickTargets(latestGrid(frame), rows, maxClicks, rng) : [];
    node = { actions: [...shuffle(keys, rng), ...clicks], tried: new Map(), losses: new Map(), nextUntried: 0 };
    this.#graph.set(key, node);
    return node;
  }

  #hasUntried(node: StateNode): boolean {
    while (node.nextUntried < node.actions.length && node.tried.has(node.nextUntried)) node.nextUntried++;
    return node.nextUntried < node.actions.length;
  }

  /** Shortest known path from `start` to a state with an untried action (breadth-first over tried edges). */
  #pathToFrontier(start: string): Step[] | undefined {
    const previous = new Map<string, Step | null>([[start, null]]);
    const queue = [start];
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head]!;
      const node = this.#graph.get(at);
      if (node === undefined) continue;
      if (this.#hasUntried(node)) {
        const steps: Step[] = [];
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
  }

  #take(from: string, node: StateNode, index: number): AgentAction {
    this.#pending = { at: from, index };
    return node.actions[index]!;
  }
}

export default defineAgent({
  name: 'explorer',
  description: 'Remembers states by grid hash, prefers untried actions, walks (or resets) back to unexplored states.',
  // It calls no model: nothing to estimate, and every decision is quick.
  describe: () => ({ callsModel: false }),
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
    const settings: ExplorerSettings = { rows, maxClicks: params.max_clicks, useUndo: params.use_undo, rng };
    const scratch = new Uint8Array(GRID_SIZE * GRID_SIZE);
    let map: LevelMap | undefined;

    /** The state: the level and a hash of the grid without its HUD rows. */
    const stateKey = (frame: FrameResponse): string => {
      scratch.set(latestGrid(frame));
      for (const y of ignored) scratch.fill(0, y * GRID_SIZE, (y + 1) * GRID_SIZE);
      return `${frame.levels_completed}:${gridHash(scratch)}`;
    };

    return {
      act(frame) {
        const key = stateKey(frame);
        if (map === undefined || map.level !== frame.levels_completed) map = new LevelMap(frame.levels_completed, key, settings);
        const lost = frame.state === 'GAME_OVER';
        map.learn(key, lost);
        if (!lost) return map.next(key, frame);
        map.forgetWalk();
        return reset('level lost: back to its start');
      },
      snapshot(): SavedExplorer {
        return { rng: rng.saveState(), map: map?.saved() ?? null };
      },
      restore(state) {
        const saved = state as SavedExplorer;
        rng.restoreState(saved.rng);
        map = saved.map === null ? undefined : LevelMap.fromSaved(saved.map, settings);
      },
    };
  },
});
