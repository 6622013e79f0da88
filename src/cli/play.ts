/**
 * `arcbench play <game>`: a person plays in the terminal, locally through the game interface. Grids are
 * drawn in true colour; keys from a TTY in raw mode with mouse reporting, or from piped stdin (so a
 * script can play: `printf 'dddq' | arcbench play crat`).
 */
import { Command } from 'commander';
import { actionName } from '../protocol/index.ts';
import type { Grid } from '../protocol/index.ts';
import { findPuzzleGame, levelIndexOf } from '../games/findGame.ts';
import { gridToAnsi } from '../games/view/ansiGrid.ts';
import { HandSession } from '../games/view/handSession.ts';
import { TerminalKeyReader, type TerminalCommand } from '../games/view/terminalKeys.ts';

const HELP = 'arrows/WASD move · space act · click (or c, then "x y" Enter) · z undo · r reset (twice: restart) · q quit';
const ENTER_SCREEN = '\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h';
const LEAVE_SCREEN = '\x1b[?1000l\x1b[?1006l\x1b[?25h\x1b[?1049l';

export function register(program: Command): void {
  program
    .command('play')
    .description('Play a game by hand in the terminal (keys, mouse, or piped stdin).')
    .argument('<game>', 'game id or slug, e.g. crat')
    .option('--level <n>', 'start at this level (from 1)', '1')
    .addHelpText('after', `\nKeys: ${HELP}`)
    .action(async (gameName: string, options: { level: string }) => {
      let session: HandSession;
      try {
        const game = findPuzzleGame(gameName);
        session = new HandSession(game, levelIndexOf(game, options.level));
      } catch (error) {
        process.stderr.write(`play: ${(error as Error).message}\n`);
        process.exit(2);
      }
      await playInTerminal(session);
      process.exit(0);
    });
}

async function playInTerminal(session: HandSession): Promise<void> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const out = process.stdout;
  let restored = !interactive;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    out.write(LEAVE_SCREEN);
    process.stdin.setRawMode(false);
  };
  if (interactive) {
    // Whatever ends the process, the terminal gets its cursor, screen and line mode back.
    process.on('exit', restore);
    process.on('uncaughtException', (error) => {
      restore();
      process.stderr.write(`play: ${error.stack ?? error.message}\n`);
      process.exit(1);
    });
    process.stdin.setRawMode(true);
    out.write(ENTER_SCREEN);
  }
  const { info } = session.game;
  const frameDelay = Math.min(200, Math.round(1000 / info.defaultFps));

  const status = (message: string): string => {
    const play = session.play;
    const level = play.levelIndex;
    return [
      `${info.title} (${info.id}) · level ${level + 1}/${session.game.levels.length} · ${session.state} · levels completed ${session.levelsCompleted}`,
      `actions ${session.actions} (resets ${session.resets}) · steps on this level ${play.stepsTaken}/${play.stepBudget} · baseline ${info.baselineActions[level]}`,
      message,
    ].join('\n');
  };
  const show = (grid: Grid, message: string): void => {
    if (interactive) out.write(`\x1b[H${gridToAnsi(grid)}\n${status(message).replace(/\n/g, '\x1b[K\n')}\x1b[K\n${HELP}\x1b[K\x1b[J`);
    else out.write(`${status(message)}\n`);
  };

  if (!interactive) out.write(`${gridToAnsi(session.play.frame())}\n${HELP}\n`);
  show(session.play.frame(), 'ready');

  const run = async (command: TerminalCommand): Promise<boolean> => {
    if (command.kind === 'quit') return false;
    if (command.kind === 'typing-coordinates') {
      if (interactive) out.write('\nclick at (type "x y", then Enter): ');
      return true;
    }
    if (command.kind === 'bad-coordinates') {
      show(session.play.frame(), `"${command.text}" is not a click: type two whole numbers 0..63, e.g. "12 30"`);
      return true;
    }
    const step =
      command.kind === 'reset' ? session.reset() : command.kind === 'click' ? session.act({ id: 6, x: command.x, y: command.y }) : session.act({ id: command.id });
    const label = command.kind === 'reset' ? 'RESET' : command.kind === 'click' ? `ACTION6 (${command.x}, ${command.y})` : actionName(command.id);
    const frames = step.frames.length > 0 ? step.frames : [session.play.frame()];
    const message = `${label}${step.message === '' ? '' : `: ${step.message}`}`;
    if (!interactive) {
      show(frames[frames.length - 1], message);
      return true;
    }
    // Animations and level transitions play out at the game's pace.
    for (let i = 0; i < frames.length; i++) {
      show(frames[i], message);
      if (i < frames.length - 1) await new Promise((resolve) => setTimeout(resolve, frameDelay));
    }
    return true;
  };

  const reader = new TerminalKeyReader();
  process.stdin.setEncoding('utf8');
  // Keys are handled one after another, each after the previous one's animation.
  await new Promise<void>((resolve) => {
    let queue = Promise.resolve(true);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      process.stdin.pause();
      resolve();
    };
    process.stdin.on('data', (chunk: string) => {
      for (const command of reader.feed(chunk)) {
        queue = queue.then(async (going) => (going && !done ? run(command) : false));
      }
      void queue.then((going) => {
        if (!going) finish();
      });
    });
    process.stdin.on('end', () => void queue.then(finish));
  });

  restore();
  if (!interactive) out.write(`${gridToAnsi(session.play.frame())}\n`);
  out.write(`bye: ${session.game.info.slug} level ${session.play.levelIndex + 1}/${session.game.levels.length}, ${session.state}, levels completed ${session.levelsCompleted}, actions ${session.actions}\n`);
}
