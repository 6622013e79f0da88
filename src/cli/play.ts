/**
 * `arcbench play <game>`: a person plays in the terminal, served by the reference service in this
 * process, so RESET and counting are the service's. Keys come from a terminal in raw mode with mouse
 * reporting, or from piped stdin a line at a time (so a script can play: `printf 'dddq' | arcbench play crat`).
 */
import type { Command } from 'commander';
import { actionName, CLICK_ACTION_ID, makeAction } from '../protocol/index.ts';
import { findGameIn, findPuzzleGame, levelIndexOf } from '../games/findGame.ts';
import type { OfficialGames } from '../games/official/index.ts';
import { type GamesDirOptions, gameHostsOption, gamesDirOption, loadGamesDirOrExit } from './gamesDir.ts';
import { HandSession } from './play/handSession.ts';
import { PipedInputReader } from './play/pipedInput.ts';
import { TerminalKeyReader, type TerminalCommand } from './play/terminalKeys.ts';
import { noColourAsked } from './colour.ts';
import { levelOption } from './commandSupport.ts';
import { KEYS_HELP, pipedScreen, terminalScreen, type PlayScreen } from './play/playScreen.ts';

const PIPED_HELP = `Piped input is read a line at a time. A line is a command as an agent sends it (RESET, ACTION1 to ACTION7, ACTION6 x y; any case) or keys as above, e.g. "dddq" or "c 12 30".`;
const COLOUR_HELP =
  'On a terminal the grid is drawn in true colour, even with NO_COLOR set: its colours are the game. Piped, the grids are true-colour text too, unless NO_COLOR is set: then each cell is its palette index as one hex digit (0-f), 64 digits a row.';
const BAD_LINE = 'a line takes RESET, ACTION1 to ACTION7 (ACTION6 with x y, e.g. "ACTION6 12 30") or keys';

export function register(program: Command): void {
  program
    .command('play')
    .description('Play a game by hand in the terminal (keys, mouse, or piped stdin), counted as the service counts.')
    .argument('<game>', 'game id or slug, e.g. crat')
    .addOption(levelOption('start at this level (from 1); a full restart comes back to it'))
    .addOption(gamesDirOption())
    .addOption(gameHostsOption())
    .addHelpText('after', `\nKeys: ${KEYS_HELP}\n${PIPED_HELP}\n${COLOUR_HELP}`)
    .action(async (gameName: string, options: { level: number } & GamesDirOptions) => {
      const official = await loadGamesDirOrExit('play', { ...options, gameHosts: options.gameHosts ?? 1 });
      let session: HandSession;
      try {
        session = await openSession(gameName, options.level, official);
      } catch (error) {
        official?.close();
        process.stderr.write(`play: ${(error as Error).message}\n`);
        process.exit(2);
      }
      await playInTerminal(session);
      official?.close();
      process.exit(0);
    });
}

/** The game named, from the games folder when one is given (official games start at their first level). */
async function openSession(gameName: string, level: number, official: OfficialGames | undefined): Promise<HandSession> {
  if (official === undefined) {
    const game = findPuzzleGame(gameName);
    return HandSession.ours(game, levelIndexOf(game, level));
  }
  const game = findGameIn(official.games, gameName, 'arcbench games --games-dir …');
  if (level !== 1) throw new Error(`--level: an official game is played from its first level (the engine picks levels); leave --level out`);
  return HandSession.official(game);
}

async function playInTerminal(session: HandSession): Promise<void> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const screen = interactive ? terminalScreen(session, process.stdout) : pipedScreen(session, process.stdout, noColourAsked());
  const reader = interactive ? new TerminalKeyReader() : new PipedInputReader();
  process.stdin.setEncoding('utf8');
  // Commands are handled one after another, each after the previous one's animation.
  await new Promise<void>((resolve) => {
    let queue = Promise.resolve(true);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      process.stdin.pause();
      resolve();
    };
    const enqueue = (commands: readonly TerminalCommand[]): void => {
      for (const command of commands) queue = queue.then(async (going) => (going && !done ? perform(session, screen, command) : false));
    };
    process.stdin.on('data', (chunk: string) => {
      enqueue(reader.feed(chunk));
      void queue.then((going) => {
        if (!going) finish();
      });
    });
    process.stdin.on('end', () => {
      if (reader instanceof PipedInputReader) enqueue(reader.end());
      void queue.then(finish);
    });
  });
  screen.close();
}

/** Carries out one command; false when the player quits. */
async function perform(session: HandSession, screen: PlayScreen, command: TerminalCommand): Promise<boolean> {
  switch (command.kind) {
    case 'quit':
      return false;
    case 'typing-coordinates':
      screen.promptForClick();
      return true;
    case 'bad-coordinates':
      await screen.show([session.grid], `"${command.text}" is not a click: type two whole numbers 0..63, e.g. "12 30"`);
      return true;
    case 'bad-line':
      await screen.show([session.grid], `"${command.text}" is not a command: ${BAD_LINE}`);
      return true;
  }
  const step =
    command.kind === 'reset'
      ? await session.reset()
      : await session.act(command.kind === 'click' ? makeAction(CLICK_ACTION_ID, command.x, command.y) : makeAction(command.id));
  const label =
    command.kind === 'reset' ? 'RESET' : command.kind === 'click' ? `${actionName(CLICK_ACTION_ID)} (${command.x}, ${command.y})` : actionName(command.id);
  const said = [step.message, step.warning].filter((part) => part !== '').join('; ');
  await screen.show(step.frames.length > 0 ? step.frames : [session.grid], said === '' ? label : `${label}: ${said}`);
  return true;
}
