/**
 * report.html's game list names each game as its own data does: an official game of a games_dir by its
 * metadata's title and frame rate, a remote service's game by the title its game list gives, not by the
 * built-in catalog (which knows neither) or a frame rate of 5 for all.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReportData } from '../src/report/reportData.ts';
import { readRunFolderSnapshot } from '../src/runfolder/folderSnapshot.ts';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { startOfficialToolkitServer } from './support/officialToolkitServer.ts';
import { ENGINE_ENV, TOOLKIT_GAMES_DIR } from './support/toolkitPlays.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-report-games-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function arcbench(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ARCBENCH_BIN, ...args], { cwd: dir, env: ENGINE_ENV, encoding: 'utf8' }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

/** Plays a few random actions of each game of `target`; the report's data. */
async function reportDataOf(name: string, target: string) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\n${target}agents: [{ use: random }]\nbudgets: { max_actions: 3 }\nrecordings: false\n`);
  const out = join(dir, name);
  const run = await arcbench(['run', file, '--out', out]);
  expect(run.code, run.stderr).toBe(0);
  return buildReportData(readRunFolderSnapshot(out), { kind: 'served', base_url: '/' });
}

/** The report's game list after a few random actions of each game of `target`. */
async function gameListOf(name: string, target: string) {
  return (await reportDataOf(name, target)).games;
}

describe('the report’s game list', () => {
  it('takes an official game’s title and frame rate from its metadata', async () => {
    const games = join(dir, 'games');
    cpSync(TOOLKIT_GAMES_DIR, games, { recursive: true });
    const metadataFile = join(games, 'game1', 'metadata.json');
    writeFileSync(metadataFile, JSON.stringify({ ...JSON.parse(readFileSync(metadataFile, 'utf8')), title: 'Bee Eleven', default_fps: 12 }));
    const list = await gameListOf('games-dir', `target: reference\ngames_dir: ${games}\n`);
    expect(list).toEqual([
      { game_id: 'bt11-fd9df0622a1a', title: 'Bee Eleven', default_fps: 12, levels: 5 },
      // bt33 plays 5 levels but has baselines for 3: the card counts 3, and so do the table and this list.
      { game_id: 'bt33-a7c3f9d18b4e', title: 'BT33', default_fps: 5, levels: 3 },
    ]);
  });

  it('takes a remote service’s game titles from its game list', async () => {
    const official = await startOfficialToolkitServer();
    try {
      const data = await reportDataOf('remote', `target: { url: "${official.url}", api_key: k }\n`);
      // An episode's levels are out of the card's count too, which its frames' win_levels exceeds for bt33.
      expect(data.episodes.map((row) => [row.game_id, row.level_count, row.win_levels])).toEqual(
        expect.arrayContaining([
          ['bt11-fd9df0622a1a', 5, 5],
          ['bt33-a7c3f9d18b4e', 3, 5],
        ]),
      );
      const list = data.games;
      expect(list.map((game) => [game.game_id, game.title, game.default_fps, game.levels])).toEqual(
        expect.arrayContaining([
          ['bt11-fd9df0622a1a', 'BT11', 5, 5],
          ['bt33-a7c3f9d18b4e', 'BT33', 5, 3],
        ]),
      );
    } finally {
      await official.stop();
    }
  });
});
