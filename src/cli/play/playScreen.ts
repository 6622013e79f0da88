/**
 * What `play` shows. On a terminal: a full screen redrawn in place, the grid in true colour with the
 * status under it, animations at the game's pace. Piped: the first grid and the help, then the status
 * after each command, and the last grid at the end, as a log a script can read.
 */
import type { Grid } from '../../protocol/index.ts';
import { gridToAnsi } from './ansiGrid.ts';
import { gridToDigits } from './digitGrid.ts';
import type { HandSession } from './handSession.ts';

export const KEYS_HELP = 'arrows/WASD move · space act · click (or c, then "x y" Enter) · z undo · r reset (twice: restart) · q quit';

/** Alternate screen, no cursor, mouse press reports in SGR form; and back. */
const ENTER_SCREEN = '\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h';
const LEAVE_SCREEN = '\x1b[?1000l\x1b[?1006l\x1b[?25h\x1b[?1049l';
/** Animations faster than this look like a flicker, slower ones make a person wait. */
const SLOWEST_FRAME_MS = 200;

export interface PlayScreen {
  /** Shows a step's grids in order (an animation ends on the current look) and a message. */
  show(frames: readonly Grid[], message: string): Promise<void>;
  /** Asks for the coordinates of a typed click. */
  promptForClick(): void;
  /** Gives the terminal back and says goodbye with the final numbers. */
  close(): void;
}

function statusLines(session: HandSession, message: string): string {
  const { info } = session;
  const status = session.status();
  const counts = [
    `actions ${status.actions} (resets ${status.resets})`,
    ...(status.steps === undefined ? [] : [`steps on this level ${status.steps.taken}/${status.steps.budget}`]),
    `baseline ${status.baseline ?? 'none given'}`,
  ];
  return [
    `${info.title} (${info.id}) · level ${status.levelNumber}/${status.levelCount} · ${status.state} · levels completed ${status.levelsCompleted} · score ${status.score.toFixed(1)}`,
    counts.join(' · '),
    message,
  ].join('\n');
}

function goodbye(session: HandSession): string {
  const status = session.status();
  return `bye: ${session.info.slug} level ${status.levelNumber}/${status.levelCount}, ${status.state}, levels completed ${status.levelsCompleted}, actions ${status.actions}, resets ${status.resets}, score ${status.score.toFixed(1)}\n`;
}

/** The full-screen view of a terminal; it takes raw keys and mouse reports until close(). */
export function terminalScreen(session: HandSession, out: NodeJS.WriteStream): PlayScreen {
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    out.write(LEAVE_SCREEN);
    process.stdin.setRawMode(false);
  };
  // Whatever ends the process, the terminal gets its cursor, screen and line mode back.
  process.on('exit', close);
  process.on('uncaughtException', (error) => {
    close();
    process.stderr.write(`play: ${error.stack ?? error.message}\n`);
    process.exit(1);
  });
  process.stdin.setRawMode(true);
  out.write(ENTER_SCREEN);

  const frameDelay = Math.min(SLOWEST_FRAME_MS, Math.round(1000 / session.info.defaultFps));
  // Each line is cleared to its end, since a shorter line may replace a longer one.
  const draw = (grid: Grid, status: string): void => {
    out.write(`\x1b[H${gridToAnsi(grid)}\n${status.replace(/\n/g, '\x1b[K\n')}\x1b[K\n${KEYS_HELP}\x1b[K\x1b[J`);
  };
  draw(session.grid, statusLines(session, 'ready'));
  return {
    async show(frames, message) {
      const status = statusLines(session, message);
      for (const [i, grid] of frames.entries()) {
        draw(grid, status);
        if (i < frames.length - 1) await new Promise((resolve) => setTimeout(resolve, frameDelay));
      }
    },
    promptForClick() {
      out.write('\nclick at (type "x y", then Enter): ');
    },
    close() {
      close();
      out.write(goodbye(session));
    },
  };
}

/** The log of piped output; grids as palette digits when `plain` (NO_COLOR), else in true colour. */
export function pipedScreen(session: HandSession, out: NodeJS.WritableStream, plain: boolean): PlayScreen {
  const drawGrid = plain ? gridToDigits : gridToAnsi;
  out.write(`${drawGrid(session.grid)}\n${KEYS_HELP}\n${statusLines(session, 'ready')}\n`);
  return {
    async show(_frames, message) {
      out.write(`${statusLines(session, message)}\n`);
    },
    promptForClick() {},
    close() {
      out.write(`${drawGrid(session.grid)}\n${goodbye(session)}`);
    },
  };
}
