/**
 * The replay viewer: one recording, step by step. A step is one line of the recording (step 0 is the
 * RESET that began the session); a step holds one grid or several (animations, level transitions).
 * Stepping shows a step's last grid (where the action left the game); playing shows every grid at the
 * game's frame rate.
 */
import { actionLabel } from './actionLabel.ts';
import { el, replaceChildren } from './dom.ts';
import { GridCanvas } from './gridCanvas.ts';
import * as format from './format.ts';
import type { Recording, ReplayStep } from './recording.ts';

export interface ReplayTitle {
  agent: string;
  gameId: string;
  /** The game as the page names it (title and id). */
  gameName: string;
  episode: number;
  outcome: string;
}

export interface ShowOptions {
  /** The step to open at (clamped); default the first. */
  step?: number;
  /** The URL fragment (without `#`) that opens this recording at a step. */
  linkOf?: (step: number) => string;
}

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
const KEY_HELP = 'Space play/pause · ←/→ step · Shift+←/→ 10 steps · Home/End first/last · ,/. grid within a step · [/] level changes';

export class ReplayViewer {
  readonly element: HTMLElement;
  private readonly grid = new GridCanvas();
  private readonly heading = el('h3', { class: 'replay-title' });
  private readonly scrubber = el('input', { type: 'range', min: 0, max: 0, value: 0, 'aria-label': 'step', 'data-testid': 'scrubber' });
  private readonly marks = el('div', { class: 'scrub-marks', 'aria-hidden': 'true' });
  private readonly playButton = el('button', { type: 'button', 'data-testid': 'play', title: 'play / pause (Space)' }, '▶ play');
  private readonly speed = el('select', { 'aria-label': 'speed', 'data-testid': 'speed' });
  private readonly fps = el('span', { class: 'fps' });
  private readonly readout = el('dl', { class: 'readout' });
  private readonly event = el('p', { class: 'event', 'data-testid': 'event' });
  private readonly reasoning = el('details', { class: 'reasoning' });
  private readonly stepLink = el('a', { class: 'step-link', 'data-testid': 'step-link', hidden: true }, 'link to this step');
  private linkOf: ((step: number) => string) | undefined;
  private recording: Recording | null = null;
  private step = 0;
  private gridIndex = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `onStep`: told the step on screen after every move, with its link (the page keeps its URL there). */
  constructor(
    private readonly fpsOf: (gameId: string) => number,
    private readonly onStep: (link: string) => void = () => {},
  ) {
    for (const value of SPEEDS) this.speed.append(el('option', { value, selected: value === 1 }, `${value}×`));
    this.scrubber.addEventListener('input', () => this.goTo(Number(this.scrubber.value)));
    this.playButton.addEventListener('click', () => this.togglePlay());
    this.speed.addEventListener('change', () => {
      this.showFps();
      if (this.playing()) this.schedule();
    });
    const button = (label: string, title: string, testId: string, action: () => void) =>
      el('button', { type: 'button', title, 'data-testid': testId, onclick: () => action() }, label);
    const controls = el(
      'div',
      { class: 'controls' },
      button('|◀', 'first step (Home)', 'first', () => this.goTo(0)),
      button('◀', 'step back (←)', 'back', () => this.goTo(this.step - 1)),
      this.playButton,
      button('▶', 'step forward (→)', 'forward', () => this.goTo(this.step + 1)),
      button('▶|', 'last step (End)', 'last', () => this.goTo(this.lastStep())),
      el('label', { class: 'speed' }, 'speed ', this.speed, ' ', this.fps),
    );
    const canvasBox = el('div', { class: 'canvas-box' }, this.grid.canvas);
    const side = el('div', { class: 'side' }, this.readout, this.stepLink, this.event, this.reasoning);
    this.element = el(
      'div',
      { class: 'viewer', 'data-testid': 'viewer', tabindex: 0 },
      this.heading,
      el('div', { class: 'stage' }, canvasBox, side),
      el('div', { class: 'scrub' }, this.scrubber, this.marks),
      controls,
      el('p', { class: 'keys' }, KEY_HELP),
    );
    this.grid.canvas.setAttribute('data-testid', 'grid');
    document.addEventListener('keydown', (event) => this.onKey(event));
  }

  /** Shows a recording from its first step, or the step asked for. */
  show(title: ReplayTitle, recording: Recording, options: ShowOptions = {}): void {
    this.pause();
    this.recording = recording;
    this.linkOf = options.linkOf;
    replaceChildren(this.heading, `${title.agent} · ${title.gameName} · episode ${title.episode} · ${format.outcome(title.outcome)}`);
    this.element.dataset.recordingGame = recording.gameId;
    this.showFps();
    this.refreshScrubber();
    this.goTo(options.step ?? 0);
  }

  private showFps(): void {
    if (this.recording === null) return;
    const fps = this.fpsOf(this.recording.gameId);
    replaceChildren(this.fps, `(${fps * Number(this.speed.value)} grids/s)`);
  }

  /** A live recording grew: keep the place, and follow the end when it was there. */
  extend(recording: Recording): void {
    if (this.recording === null) return;
    const atEnd = this.step === this.lastStep();
    this.recording = recording;
    this.refreshScrubber();
    this.goTo(atEnd ? this.lastStep() : this.step);
  }

  playing(): boolean {
    return this.timer !== undefined;
  }

  private lastStep(): number {
    return Math.max(0, (this.recording?.steps.length ?? 1) - 1);
  }

  /** Shows step `index` (clamped) at its last grid. */
  goTo(index: number, gridIndex?: number): void {
    const recording = this.recording;
    if (recording === null || recording.steps.length === 0) return;
    this.step = Math.min(Math.max(0, index), this.lastStep());
    const grids = recording.steps[this.step]!.grids.length;
    this.gridIndex = Math.min(Math.max(0, gridIndex ?? grids - 1), grids - 1);
    this.render();
  }

  private render(): void {
    const recording = this.recording!;
    // goTo() keeps the step and the grid on screen within the recording.
    const step = recording.steps[this.step]!;
    const action = step.action;
    this.grid.draw(step.grids[this.gridIndex]!, action.x !== undefined && action.y !== undefined ? { x: action.x, y: action.y } : null);
    this.scrubber.value = String(this.step);
    const row = (term: string, value: string, testId: string) => [el('dt', {}, term), el('dd', { 'data-testid': testId }, value)];
    replaceChildren(
      this.readout,
      ...row('step', `${this.step} of ${this.lastStep()}`, 'step-counter'),
      ...row('grid', `${this.gridIndex + 1} of ${step.grids.length}`, 'grid-counter'),
      ...row('action', actionLabel(action), 'action'),
      ...row('state', step.state, 'state'),
      ...row('levels', `${step.levelsCompleted} of ${step.winLevels}`, 'levels'),
      ...row('time', step.timestamp.replace('T', ' ').replace('Z', ''), 'timestamp'),
    );
    const what = stepEvent(recording.steps, this.step);
    replaceChildren(this.event, what?.text ?? '');
    this.event.className = `event event-${what?.kind ?? 'none'}`;
    this.renderReasoning(action.reasoning);
    this.stepLink.hidden = this.linkOf === undefined;
    if (this.linkOf !== undefined) this.stepLink.setAttribute('href', `#${this.linkOf(this.step)}`);
    // While playing, the page's URL follows at the pause: browsers throttle a page that rewrites it many times a second.
    if (!this.playing()) this.reportStep();
    // For what sits beside the viewer (the transcript panel): the step on screen changed.
    this.element.dispatchEvent(new CustomEvent('stepchange', { detail: this.step }));
  }

  private reportStep(): void {
    if (this.linkOf !== undefined) this.onStep(this.linkOf(this.step));
  }

  private renderReasoning(reasoning: unknown): void {
    this.reasoning.hidden = reasoning === undefined;
    if (reasoning === undefined) return;
    const text = typeof reasoning === 'string' ? reasoning : JSON.stringify(reasoning, null, 2);
    replaceChildren(this.reasoning, el('summary', {}, 'reasoning'), el('pre', {}, text));
  }

  private refreshScrubber(): void {
    const steps = this.recording?.steps ?? [];
    this.scrubber.max = String(this.lastStep());
    const last = this.lastStep() || 1;
    replaceChildren(
      this.marks,
      ...steps.flatMap((_, index) => {
        const what = stepEvent(steps, index);
        if (what === null || what.kind === 'start') return [];
        return [el('span', { class: `mark mark-${what.kind}`, style: `left: ${(100 * index) / last}%`, title: `step ${index}: ${what.text}` })];
      }),
    );
  }

  togglePlay(): void {
    if (this.playing()) this.pause();
    else this.play();
  }

  play(): void {
    if (this.recording === null) return;
    const steps = this.recording.steps;
    // From the very end, play starts over; otherwise it goes on from the grid on screen.
    if (this.step === this.lastStep() && this.gridIndex === steps[this.step]!.grids.length - 1) this.goTo(0, 0);
    replaceChildren(this.playButton, '⏸ pause');
    this.schedule();
  }

  pause(): void {
    const wasPlaying = this.playing();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    replaceChildren(this.playButton, '▶ play');
    if (wasPlaying) this.reportStep();
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const fps = this.fpsOf(this.recording!.gameId) * Number(this.speed.value);
    this.timer = setTimeout(() => this.tick(), 1000 / fps);
  }

  /** One grid further: the next grid of this step, else the first grid of the next step; stops at the end. */
  private tick(): void {
    const steps = this.recording!.steps;
    if (this.gridIndex + 1 < steps[this.step]!.grids.length) this.goTo(this.step, this.gridIndex + 1);
    else if (this.step < this.lastStep()) this.goTo(this.step + 1, 0);
    if (this.step === this.lastStep() && this.gridIndex === steps[this.step]!.grids.length - 1) this.pause();
    else this.schedule();
  }

  private onKey(event: KeyboardEvent): void {
    if (this.recording === null || !this.element.isConnected || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement | null;
    if (target !== null && (target.tagName === 'SELECT' || (target.tagName === 'INPUT' && target !== this.scrubber) || target.tagName === 'TEXTAREA')) return;
    const by = event.shiftKey ? 10 : 1;
    const handled = this.keyAction(event.key, by);
    if (handled) event.preventDefault();
  }

  private keyAction(key: string, by: number): boolean {
    const steps = this.recording!.steps;
    switch (key) {
      case ' ':
      case 'k':
        this.togglePlay();
        return true;
      case 'ArrowRight':
      case 'l':
        this.pause();
        this.goTo(this.step + by);
        return true;
      case 'ArrowLeft':
      case 'j':
        this.pause();
        this.goTo(this.step - by);
        return true;
      case 'Home':
        this.goTo(0);
        return true;
      case 'End':
        this.goTo(this.lastStep());
        return true;
      case '.':
        this.goTo(this.step, this.gridIndex + 1);
        return true;
      case ',':
        this.goTo(this.step, this.gridIndex - 1);
        return true;
      case ']':
        this.goTo(nextEvent(steps, this.step, 1) ?? this.step);
        return true;
      case '[':
        this.goTo(nextEvent(steps, this.step, -1) ?? this.step);
        return true;
      default:
        return false;
    }
  }
}

export interface StepEvent {
  kind: 'start' | 'win' | 'level' | 'full-reset' | 'level-reset' | 'game-over';
  text: string;
}

/** What happened at a step worth marking: a level completed, a win, game over, a reset. */
export function stepEvent(steps: readonly ReplayStep[], index: number): StepEvent | null {
  const step = steps[index];
  const before = steps[index - 1];
  if (step === undefined) return null;
  if (index === 0) return { kind: 'start', text: 'session start: the first RESET' };
  if (step.state === 'WIN' && before?.state !== 'WIN') return { kind: 'win', text: `won: all ${step.winLevels} levels completed` };
  if (step.levelsCompleted > (before?.levelsCompleted ?? 0)) {
    return { kind: 'level', text: `level ${step.levelsCompleted + 1} reached (${step.levelsCompleted} of ${step.winLevels} completed)` };
  }
  if (step.fullReset) return { kind: 'full-reset', text: 'full reset: a new run from level 1' };
  if (step.action.id === 0) return { kind: 'level-reset', text: 'level reset: the level starts over' };
  if (step.state === 'GAME_OVER' && before?.state !== 'GAME_OVER') return { kind: 'game-over', text: 'game over' };
  return null;
}

function nextEvent(steps: readonly ReplayStep[], from: number, direction: 1 | -1): number | undefined {
  for (let i = from + direction; i >= 0 && i < steps.length; i += direction) if (stepEvent(steps, i) !== null) return i;
  return undefined;
}
