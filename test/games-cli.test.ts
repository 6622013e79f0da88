/**
 * The games, play and render commands, run as a user runs them: the real CLI in a child process. A child
 * costs over half a second of CPU (Node, tsx, the command's modules), so a child whose output several
 * tests read runs once, and the help texts are read in this process, with one real child for `--help`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCommandModules } from '../src/cli/commands.ts';
import { actionName, GRID_SIZE, PALETTE_RGB } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/index.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';
import { gameBySlug } from './games-helpers.ts';
import { firstOf } from './support/lists.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const CLI = ARCBENCH_BIN;
const workDir = mkdtempSync(join(tmpdir(), 'arcbench-games-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function arcbench(args: string[], input = '', env: Record<string, string> = {}): { stdout: string; stderr: string; status: number | null } {
  // NO_COLOR and FORCE_COLOR come only from the test, never from the shell that runs it.
  // CI is dropped too: cli-table3's colour library turns colour off wherever CI is set, as a terminal user's shell does not.
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, CI: _ci, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', timeout: 30_000, env: { ...inherited, ...env } });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

/** `arcbench` with these arguments and input, run once however many tests read its output. */
function arcbenchOnce(args: string[], input = ''): () => ReturnType<typeof arcbench> {
  let result: ReturnType<typeof arcbench> | undefined;
  return () => {
    result ??= arcbench(args, input);
    return result;
  };
}

/** `arcbench games`, piped. */
const gamesPiped = arcbenchOnce(['games']);
/** Crate Yard level 1 in three steps right, then quit, piped. */
const cratePlayed = arcbenchOnce(['play', 'crat'], 'dddq');
/** Plank Walk: three steps right meet the hazard, a fourth comes after GAME_OVER. */
const plankLost = arcbenchOnce(['play', 'plnk'], 'dddd');

/** The CLI on a pseudo-terminal (util-linux `script`), so that its stdout is a TTY as in a person's shell. */
function arcbenchOnTerminal(args: string[], env: Record<string, string> = {}): string {
  // CI is dropped too: cli-table3's colour library turns colour off wherever CI is set, as a terminal user's shell does not.
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, CI: _ci, ...inherited } = process.env;
  const command = [process.execPath, CLI, ...args].map((word) => `'${word}'`).join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], { input: '', encoding: 'utf8', timeout: 30_000, env: { ...inherited, ...env } });
  if (result.status !== 0) throw new Error(`script failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** The numbers of the closing line of `play`. */
function byeOf(stdout: string) {
  const bye = /bye: (\w+) level (\d+)\/(\d+), (\w+), levels completed (\d+), actions (\d+), resets (\d+)/.exec(stdout);
  if (bye === null) expect.fail(`no closing line in:\n${stdout.slice(-600)}`);
  return { level: Number(bye[2]), state: bye[4], levelsCompleted: Number(bye[5]), actions: Number(bye[6]), resets: Number(bye[7]) };
}

const ESCAPE = '\x1b';

describe('arcbench games', () => {
  it('lists every game as a table', () => {
    const { stdout, status } = gamesPiped();
    expect(status).toBe(0);
    for (const { info } of puzzleCatalog()) {
      expect(stdout).toContain(info.id);
      expect(stdout).toContain(info.title);
    }
  });

  it('prints descriptors as JSON with --json', () => {
    const descriptors = JSON.parse(execFileSync(process.execPath, [CLI, 'games', '--json'], { encoding: 'utf8' })) as {
      game_id: string;
      baseline_actions: number[];
    }[];
    expect(descriptors.map((d) => d.game_id)).toEqual(puzzleCatalog().map((game) => game.info.id));
    expect(descriptors[0]?.baseline_actions).toEqual([...puzzleCatalog()[0]!.info.baselineActions]);
  });

  it('writes no colour codes when piped or under NO_COLOR, and colours its header on a terminal', () => {
    const piped = gamesPiped();
    expect(piped.status).toBe(0);
    expect(piped.stdout).not.toContain(ESCAPE);
    expect(arcbench(['games'], '', { NO_COLOR: '1' }).stdout).not.toContain(ESCAPE);
    const terminal = arcbenchOnTerminal(['games']);
    expect(terminal).toContain('crat-');
    expect(terminal).toContain(ESCAPE);
    const terminalNoColor = arcbenchOnTerminal(['games'], { NO_COLOR: '1' });
    expect(terminalNoColor).toContain('crat-');
    expect(terminalNoColor).not.toContain(ESCAPE);
  });
});

/** A command's help text as `arcbench <command> --help` prints it, from the command modules in this process. */
async function helpOf(name: string): Promise<string> {
  const program = new Command().name('arcbench');
  for (const module of await loadCommandModules([name])) module.register(program);
  const command = program.commands.find((candidate) => candidate.name() === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

describe('help texts', () => {
  it('print on stdout and exit 0 from the real CLI', async () => {
    const { stdout, status } = arcbench(['games', '--help']);
    expect(status).toBe(0);
    // What the tests below read in this process is what the CLI prints.
    expect(stdout).toBe(await helpOf('games'));
  });

  it.each(['games', 'play', 'render', 'run', 'plan', 'validate', 'schema', 'serve'])(
    'of %s stand on their own (no SPEC section that is not shipped)',
    async (command) => {
      const text = await helpOf(command);
      expect(text).toContain(`Usage: arcbench ${command}`);
      expect(text).not.toMatch(/SPEC|§/);
    },
  );
});

describe('arcbench play', () => {
  it('plays keys piped on stdin and reports level progress', () => {
    // Crate Yard level 1: three steps right push the crate onto the pad.
    const { stdout, status } = cratePlayed();
    expect(status).toBe(0);
    expect(stdout).toContain('level 1 completed');
    expect(stdout).toContain('level 2/6');
    expect(stdout).toMatch(/bye: crat level 2\/6, NOT_FINISHED, levels completed 1, actions 3/);
    expect(stdout).toContain('▀');
  });

  it('mirrors RESET: once restarts the level and counts, twice restarts the game', () => {
    const { stdout, status } = arcbench(['play', 'crat'], 'dddsrrq');
    expect(status).toBe(0);
    expect(stdout).toContain('level restarted');
    expect(stdout).toContain('full restart');
    expect(stdout).toMatch(/bye: crat level 1\/6, NOT_FINISHED, levels completed 0/);
  });

  it('reports GAME_OVER when a hazard is met, and takes typed clicks', () => {
    const lost = plankLost();
    expect(lost.status).toBe(0);
    expect(lost.stdout).toContain('GAME_OVER');
    const clicked = arcbench(['play', 'lamp'], 'c 0 30\nc 99 1\nq');
    expect(clicked.stdout).toContain('ACTION6 (0, 30)');
    expect(clicked.stdout).toContain('is not a click');
  });

  it('counts as the reference service does: the same keys give the scorecard the service gives', () => {
    // Crate Yard: level 1 in three steps right, a step, a level reset, a full restart; level 1 again and a
    // reset right after its completion (a full restart by the service's rule); then steps, an undo, resets.
    const keys = 'dddsrr' + 'dddr' + 'dddwzardr';
    const { stdout, status } = arcbench(['play', 'crat'], `${keys}q`);
    expect(status).toBe(0);
    const service = new ReferenceService({ seed: 1 });
    const card = service.openScorecard('k', {}).card_id;
    const gameId = gameBySlug('crat').info.id;
    let frame = service.command('k', 'RESET', { game_id: gameId, card_id: card });
    const ids: Record<string, 1 | 2 | 3 | 4 | 7> = { w: 1, s: 2, a: 3, d: 4, z: 7 };
    const commandOf = (key: string) => {
      if (key === 'r') return 'RESET';
      const id = ids[key];
      if (id === undefined) throw new Error(`the test plays a key the game has no action for: ${key}`);
      return actionName(id);
    };
    for (const key of keys) frame = service.command('k', commandOf(key), { game_id: gameId, guid: frame.guid });
    const environment = firstOf(service.getScorecard('k', card).environments, 'environment');
    expect(byeOf(stdout)).toEqual({
      level: frame.levels_completed + 1,
      state: frame.state,
      levelsCompleted: frame.levels_completed,
      actions: environment.actions,
      resets: environment.resets,
    });
    expect(stdout).toContain('full restart: back to the first level');
  });

  it('starts at --level n and restarts the game there', () => {
    const { stdout, status } = arcbench(['play', 'slid', '--level', '3'], 'wr' + 'r' + 'q');
    expect(status).toBe(0);
    expect(stdout).toContain('level 3/6');
    expect(stdout).toContain('level restarted (r again restarts the game)');
    expect(stdout).toContain('full restart: back to level 3');
    expect(byeOf(stdout)).toEqual({ level: 3, state: 'NOT_FINISHED', levelsCompleted: 0, actions: 2, resets: 1 });
  });

  it('says in a sentence why an action after GAME_OVER is not taken, and counts it not', () => {
    const { stdout } = plankLost();
    expect(stdout).toContain('ACTION4: not taken, the game is over: r retries the level, q quits');
    expect(byeOf(stdout)).toMatchObject({ state: 'GAME_OVER', actions: 3 });
  });

  it('takes action names on piped lines, in any case, with keys on other lines', () => {
    const keysOnly = cratePlayed();
    const named = arcbench(['play', 'crat'], 'ACTION4\naction4\nAction4\n');
    expect(named.stderr).toBe('');
    expect(named.stdout).toContain('level 1 completed');
    expect(byeOf(named.stdout)).toEqual(byeOf(keysOnly.stdout));
    const mixed = arcbench(['play', 'crat'], 'dd\nACTION1\nRESET\nreset\nd\n');
    expect(mixed.stdout).toContain('level restarted');
    expect(mixed.stdout).toContain('full restart');
    expect(byeOf(mixed.stdout)).toMatchObject({ level: 1, levelsCompleted: 0, actions: 5, resets: 1 });
    const clicked = arcbench(['play', 'lamp'], 'ACTION6 0 30\naction6 12,30\n');
    expect(clicked.stdout).toContain('ACTION6 (0, 30)');
    expect(clicked.stdout).toContain('ACTION6 (12, 30)');
    expect(byeOf(clicked.stdout).actions).toBe(2);
  });

  it('answers a line it cannot read with what it takes, and sends nothing', () => {
    const { stdout, status } = arcbench(['play', 'lamp'], 'ACTION9\nACTION6\nACTION6 70 2\nACTION4 3\n');
    expect(status).toBe(0);
    expect(stdout).toContain('"ACTION9" is not a command: a line takes RESET, ACTION1 to ACTION7 (ACTION6 with x y, e.g. "ACTION6 12 30") or keys');
    expect(stdout).toContain('"ACTION6" is not a command');
    expect(stdout).toContain('"ACTION4 3" is not a command');
    expect(stdout).toContain('"70 2" is not a click: type two whole numbers 0..63');
    expect(byeOf(stdout).actions).toBe(0);
  });

  it("warns of a click on a keyboard-only game and of actions not among the game's, and sends them", () => {
    const { stdout } = arcbench(['play', 'slid'], 'ACTION6 3 4\nc 5 6\nz\nACTION5\n');
    expect(stdout).toContain('this game takes no clicks (its actions: ACTION1 ACTION2 ACTION3 ACTION4); sent anyway, it counts as an action');
    expect(stdout).toContain("ACTION7 is not among this game's actions (ACTION1 ACTION2 ACTION3 ACTION4); sent anyway, it counts as an action");
    expect(stdout).toContain("ACTION5: ACTION5 is not among this game's actions");
    expect(stdout.match(/this game takes no clicks/g)).toHaveLength(2);
    expect(byeOf(stdout).actions).toBe(4);
  });

  it('draws grids in true colour when piped, and as palette digits under NO_COLOR', () => {
    const coloured = cratePlayed();
    expect(coloured.stdout).toContain(`${ESCAPE}[38;2;`);
    const plain = arcbench(['play', 'crat'], 'd', { NO_COLOR: '1' });
    expect(plain.status).toBe(0);
    expect(plain.stdout).not.toContain(ESCAPE);
    const first = gameBySlug('crat').start().frame();
    const digits = Array.from({ length: GRID_SIZE }, (_, y) =>
      Array.from(first.subarray(y * GRID_SIZE, (y + 1) * GRID_SIZE), (colour) => colour.toString(16)).join(''),
    );
    expect(plain.stdout).toContain(digits.join('\n'));
  });

  it('reads --level as a whole number and checks it against the game', () => {
    const word = arcbench(['play', 'crat', '--level', 'two']);
    expect(word.status).toBe(2);
    expect(word.stderr).toContain('--level takes a whole number from 1 to 254, got "two"');
    const tooHigh = arcbench(['play', 'crat', '--level', '7']);
    expect(tooHigh.status).toBe(2);
    expect(tooHigh.stderr).toContain('crat has levels 1 to 6');
  });

  it('refuses an unknown game with a sentence that lists the known ones', () => {
    const { stderr, status } = arcbench(['play', 'xx99']);
    expect(status).toBe(2);
    expect(stderr).toContain('no game "xx99"; known: crat');
  });
});

describe('arcbench render', () => {
  it.each([
    ['crat', 2, 3],
    ['lamp', 5, 2],
  ])('writes %s level %i as a PNG in the palette (scale %i)', (slug, level, scale) => {
    const out = join(workDir, `${slug}.png`);
    const { status } = arcbench(['render', slug, '--level', String(level), '--out', out, '--scale', String(scale)]);
    expect(status).toBe(0);
    const png = PNG.sync.read(readFileSync(out));
    expect(png.width).toBe(GRID_SIZE * scale);
    const play = gameBySlug(slug).startAt(level - 1);
    const grid = play.frame();
    for (let y = 0; y < GRID_SIZE; y++) {
      for (let x = 0; x < GRID_SIZE; x++) {
        const at = ((y * scale + scale - 1) * png.width + x * scale) * 4;
        const [r, g, b] = PALETTE_RGB[grid[y * GRID_SIZE + x]!]!;
        if (png.data[at] !== r || png.data[at + 1] !== g || png.data[at + 2] !== b)
          expect.fail(`pixel of cell ${x},${y} is not palette colour ${grid[y * GRID_SIZE + x]}`);
      }
    }
  });

  it('refuses a level the game does not have', () => {
    const { stderr, status } = arcbench(['render', 'crat', '--level', '9']);
    expect(status).toBe(2);
    expect(stderr).toContain('crat has levels 1 to 6');
    const scale = arcbench(['render', 'crat', '--scale', '1.5']);
    expect(scale.status).toBe(2);
    expect(scale.stderr).toContain('--scale takes a whole number from 1 to 64, got "1.5"');
  });

  it('writes no colour codes', () => {
    const out = join(workDir, 'plain.png');
    const { stdout, status } = arcbench(['render', 'slid', '--out', out]);
    expect(status).toBe(0);
    expect(stdout).toBe(`${out}: Frost Slide level 1, 512×512 pixels\n`);
  });
});
