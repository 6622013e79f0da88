/** The games, play and render commands, run as a user runs them: the real CLI in a child process. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { GRID_SIZE, PALETTE_RGB } from '../src/protocol/index.ts';
import { puzzleCatalog } from '../src/games/puzzleCatalog.ts';
import { gameBySlug } from './games-helpers.ts';

const CLI = join(import.meta.dirname, '..', 'bin', 'arcbench.js');
const workDir = mkdtempSync(join(tmpdir(), 'arcbench-games-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function arcbench(args: string[], input = ''): { stdout: string; stderr: string; status: number | null } {
  const result = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', timeout: 30_000 });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

describe('arcbench games', () => {
  it('lists every game as a table', () => {
    const { stdout, status } = arcbench(['games']);
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
});

describe('arcbench play', () => {
  it('plays keys piped on stdin and reports level progress', () => {
    // Crate Yard level 1: three steps right push the crate onto the pad.
    const { stdout, status } = arcbench(['play', 'crat'], 'dddq');
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
    const lost = arcbench(['play', 'plnk'], 'ddd');
    expect(lost.status).toBe(0);
    expect(lost.stdout).toContain('GAME_OVER');
    const clicked = arcbench(['play', 'lamp'], 'c 0 30\nc 99 1\nq');
    expect(clicked.stdout).toContain('ACTION6 (0, 30)');
    expect(clicked.stdout).toContain('is not a click');
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
  });
});
