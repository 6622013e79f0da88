/**
 * Turns a PuzzleDefinition into a `Game` the service drives: the display (board, progress row, budget
 * row), the per-level step budget, the undo stack, click-to-cell mapping and level transitions.
 */
import { CLICK_ACTION_ID, UNDO_ACTION_ID, type GameActionId, type Grid } from '../../protocol/index.ts';
import type { Game, GameInfo, GameInput, GamePlay, StepOutcome, StepResult } from '../types.ts';
import type { Animation, MoveEffect, PuzzleDefinition } from './definition.ts';
import { gameIdOf } from './gameId.ts';
import { boardLayout, cellAtDisplay, type BoardLayout } from './layout.ts';
import { Painter } from './painter.ts';
import { copyGrid } from './gridSlab.ts';
import { stepBudgetForBaseline } from './rules.ts';

/** A game built from a definition, with its parsed levels exposed for solvers, tests and tools. */
export interface PuzzleGame<Level, State> extends Game {
  readonly definition: PuzzleDefinition<Level, State>;
  readonly levels: readonly Level[];
  readonly layouts: readonly BoardLayout[];
  readonly stepBudgets: readonly number[];
  start(): PuzzlePlay<Level, State>;
  /** A play that begins at a later level, as if the earlier ones had been completed (for tools). */
  startAt(levelIndex: number): PuzzlePlay<Level, State>;
}

export function puzzleGame<Level, State>(definition: PuzzleDefinition<Level, State>): PuzzleGame<Level, State> {
  if (!/^[a-z0-9]{4}$/.test(definition.slug)) throw new Error(`game slug "${definition.slug}" must be 4 lowercase letters or digits`);
  if (definition.levels.length === 0) throw new Error(`game "${definition.slug}" has no levels; add at least one`);
  const levels = definition.levels.map((source, index) => {
    try {
      return definition.parseLevel(source.map);
    } catch (error) {
      throw new Error(`game "${definition.slug}" level ${index + 1}: ${(error as Error).message}`);
    }
  });
  const layouts = levels.map((level) => {
    const { width, height } = definition.boardSize(level);
    return boardLayout(width, height);
  });
  const info: GameInfo = {
    slug: definition.slug,
    id: gameIdOf(definition.slug, definition.rulesVersion, definition.levels),
    title: definition.title,
    tags: [definition.tag],
    defaultFps: definition.defaultFps,
    availableActions: definition.availableActions,
    baselineActions: definition.levels.map((level) => level.baseline),
  };
  const game: PuzzleGame<Level, State> = {
    info,
    definition,
    levels,
    layouts,
    stepBudgets: definition.levels.map((level) => stepBudgetForBaseline(level.baseline)),
    start: () => new PuzzlePlay(game, 0),
    startAt: (levelIndex) => new PuzzlePlay(game, levelIndex),
  };
  return game;
}

/** Between steps: no frames (and nothing to push to: a step starts a list of its own). */
const NO_FRAMES: Grid[] = Object.freeze([]) as unknown as Grid[];

export class PuzzlePlay<Level, State> implements GamePlay {
  levelIndex = 0;
  /** Steps spent on the current level since it began or was reset. */
  stepsTaken = 0;
  state: State;
  private level: Level;
  private painter: Painter;
  private undoStack: State[] = [];
  private finished: 'won' | 'lost' | null = null;
  private readonly offersUndo: boolean;
  private readonly available: boolean[] = [];
  /** Reused for every move, so a step allocates no move object. */
  private readonly move: { id: GameActionId; x: number; y: number } = { id: 1, x: -1, y: -1 };
  /**
   * Frames recorded by animations during the current step; let go of once returned, since a play idle
   * in an open session would otherwise keep its last grids, and each grid keeps its 32 KiB slab alive.
   */
  private pending: Grid[] = NO_FRAMES;
  private readonly animation: Animation = { frame: () => this.pending.push(this.snapshot()) };

  constructor(
    private readonly game: PuzzleGame<Level, State>,
    firstLevel: number,
  ) {
    if (!Number.isInteger(firstLevel) || firstLevel < 0 || firstLevel >= game.levels.length) {
      throw new RangeError(`${game.info.slug} has level indexes 0 to ${game.levels.length - 1}, not ${firstLevel}`);
    }
    const actions = game.definition.availableActions;
    for (const id of actions) this.available[id] = true;
    this.offersUndo = actions.includes(UNDO_ACTION_ID);
    this.level = game.levels[firstLevel]!;
    this.state = game.definition.initialState(this.level);
    this.painter = new Painter(game.layouts[firstLevel]!, game.definition.letterbox);
    this.enterLevel(firstLevel);
  }

  get stepBudget(): number {
    return this.game.stepBudgets[this.levelIndex]!;
  }

  get outcome(): 'won' | 'lost' | null {
    return this.finished;
  }

  frame(): Grid {
    return copyGrid(this.painter.display);
  }

  resetLevel(): Grid {
    this.enterLevel(this.levelIndex);
    return this.frame();
  }

  step(input: GameInput): StepResult {
    if (this.finished !== null) {
      throw new Error(`this play is ${this.finished === 'won' ? 'won' : 'lost'}; call resetLevel() or start a new play before stepping`);
    }
    this.stepsTaken++;
    this.pending = [];
    const effect = this.effectOf(input);
    if (effect === 'solved') {
      const frames = this.pending;
      frames.push(this.snapshot());
      this.pending = NO_FRAMES;
      if (this.levelIndex === this.game.levels.length - 1) {
        this.finished = 'won';
        this.painter.paintProgress(this.levelIndex, this.game.levels.length, true);
        frames.push(copyGrid(this.painter.display));
        return { frames, outcome: 'won' };
      }
      this.enterLevel(this.levelIndex + 1);
      frames.push(this.frame());
      return { frames, outcome: 'level_completed' };
    }
    let outcome: StepOutcome = 'playing';
    if (effect === 'lost' || this.stepsTaken >= this.stepBudget) {
      this.finished = 'lost';
      outcome = 'lost';
    }
    const frames = this.pending;
    frames.push(this.snapshot());
    this.pending = NO_FRAMES;
    return { frames, outcome };
  }

  private effectOf(input: GameInput): MoveEffect {
    const id = input.id;
    if (this.available[id] !== true) return 'none';
    if (id === UNDO_ACTION_ID && this.offersUndo) {
      const previous = this.undoStack.pop();
      if (previous === undefined) return 'none';
      this.state = previous;
      return 'changed';
    }
    const move = this.move;
    move.id = id;
    move.x = -1;
    move.y = -1;
    if (id === CLICK_ACTION_ID) {
      const layout = this.game.layouts[this.levelIndex]!;
      const cell = cellAtDisplay(layout, input.x ?? -1, input.y ?? -1);
      if (cell < 0) return 'none';
      move.x = cell % layout.width;
      move.y = (cell - move.x) / layout.width;
    }
    const definition = this.game.definition;
    const before = this.offersUndo ? definition.cloneState(this.state) : null;
    const effect = definition.apply(this.level, this.state, move, this.animation);
    if (before !== null && effect !== 'none') this.undoStack.push(before);
    return effect;
  }

  private enterLevel(index: number): void {
    const definition = this.game.definition;
    this.levelIndex = index;
    this.level = this.game.levels[index]!;
    this.state = definition.initialState(this.level);
    this.stepsTaken = 0;
    this.undoStack = [];
    this.finished = null;
    // The same level again (a reset) keeps its painter: only the cells that differ get repainted.
    const layout = this.game.layouts[index]!;
    if (this.painter.layout !== layout) this.painter = new Painter(layout, definition.letterbox);
    this.render();
  }

  /** Brings the display up to date with the current state. */
  private render(): void {
    const painter = this.painter;
    this.game.definition.draw(this.level, this.state, painter.cells);
    painter.paintBoard();
    painter.paintProgress(this.levelIndex, this.game.levels.length, false);
    painter.paintBudget(this.stepsTaken, this.stepBudget, this.finished === 'lost');
  }

  /** The display as it is now, as a fresh grid: the one allocation of a step. */
  private snapshot(): Grid {
    this.render();
    return copyGrid(this.painter.display);
  }
}
