/**
 * `arcbench play --games-dir`: a person plays an official game in the terminal (here, piped commands as
 * a script plays), counted as the service counts. The toolkit's own local environment plays the same
 * actions: the levels, actions, resets and score `play` ends on are the toolkit scorecard's.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { pythonHasRealEngineDependencies } from './support/officialCode.ts';
import { ENGINE_ENV, PLAYS, type Step, TOOLKIT_GAMES_DIR, toolkitPlay } from './support/toolkitPlays.ts';

function play(args: readonly string[], input: string) {
  return spawnSync(process.execPath, [ARCBENCH_BIN, 'play', ...args, '--games-dir', TOOLKIT_GAMES_DIR], {
    input,
    env: { ...ENGINE_ENV, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** An action list as the lines an agent (or a script) pipes: RESET, ACTION3, ACTION6 x y. */
const commandLines = (steps: readonly Step[]) => steps.map(([id, x, y]) => (id === 0 ? 'RESET' : id === 6 ? `ACTION6 ${x} ${y}` : `ACTION${id}`)).join('\n');

describe.skipIf(!pythonHasRealEngineDependencies())('arcbench play --games-dir (python3 lacks numpy or pydantic otherwise)', () => {
  const local = pythonHasRealEngineDependencies() ? toolkitPlay() : undefined;

  it.each(Object.keys(PLAYS))(
    'plays %s as the toolkit does: its closing numbers are the toolkit scorecard’s',
    (slug) => {
      const { stdout, stderr, status } = play([slug], `${commandLines(PLAYS[slug]!)}\nq\n`);
      expect(stderr).toBe('');
      expect(status).toBe(0);
      const frames = local!.frames[slug]!;
      const last = frames[frames.length - 1]!;
      const environment = local!.scorecard.environments.find((entry) => entry.id.startsWith(slug))!;
      const actions = environment.runs.reduce((sum, run) => sum + run.actions, 0);
      const resets = environment.runs.reduce((sum, run) => sum + run.resets, 0);
      const bye = /^bye: (\w+) level \d+\/(\d+), (\w+), levels completed (\d+), actions (\d+), resets (\d+), score ([\d.]+)$/m.exec(stdout);
      expect(bye, stdout).not.toBeNull();
      expect(bye!.slice(1)).toEqual([
        slug,
        String(last.win_levels),
        last.state,
        String(last.levels_completed),
        String(actions),
        String(resets),
        environment.score.toFixed(1),
      ]);
    },
    90_000,
  );

  it('names the games of the folder when the game is not among them, and refuses --level with what to do', () => {
    const unknown = play(['zz99'], '');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^play: no game "zz99"; known: bt11 \(.*\), bt33 \(.*\)\. Run `arcbench games --games-dir …` to list them\.\n$/);
    const level = play(['bt11', '--level', '2'], '');
    expect(level.status).toBe(2);
    expect(level.stderr).toMatch(/^play: --level: an official game is played from its first level .*leave --level out\n$/);
  }, 90_000);
});
