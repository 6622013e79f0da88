/**
 * episodes.jsonl's writer, which writes lines in batches: a line reaches the file within the write
 * delay without anything else happening, at once when a batch is big, on close, and when the process
 * exits without closing it (process.exit, an uncaught error).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startedRecord } from '../src/runfolder/episodeRecord.ts';
import { EpisodeLog, parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { waitUntil } from './support/arcbenchProcess.ts';

const RUN_TS = join(import.meta.dirname, '..', 'bin', 'run-ts.js');
const EPISODE_LOG = join(import.meta.dirname, '..', 'src', 'runfolder', 'episodeLog.ts');
const EPISODE_RECORD = join(import.meta.dirname, '..', 'src', 'runfolder', 'episodeRecord.ts');

const game = { game_id: 'lamp-0000', title: 'lamp', baseline_actions: [3, 4] };
const record = (episode: number) => startedRecord('random', game, episode, 7, 'card', 0);
const linesOf = (path: string) => parseEpisodeLog(readFileSync(path, 'utf8')).map((r) => r.episode);

describe('EpisodeLog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arcbench-episode-log-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes lines within its delay, with nothing else happening, and all of them on close', async () => {
    const path = join(dir, 'delay.jsonl');
    const log = new EpisodeLog(path);
    log.append(record(0));
    log.append(record(1));
    await waitUntil(() => linesOf(path).length === 2, 'the two lines in the file', 2000);
    log.append(record(2));
    log.close();
    expect(linesOf(path)).toEqual([0, 1, 2]);
    expect(() => log.append(record(3))).toThrow(/already closed/);
  });

  it('writes a big batch at once', () => {
    const path = join(dir, 'big.jsonl');
    const log = new EpisodeLog(path);
    const many = Array.from({ length: 200 }, (_, i) => record(i));
    for (const r of many) log.append(r);
    // 200 lines of ~500 bytes are past the batch size: most are written before any timer could fire.
    expect(linesOf(path).length).toBeGreaterThan(100);
    log.close();
    expect(linesOf(path)).toEqual(many.map((r) => r.episode));
  });

  for (const [how, ending] of [
    ['process.exit', 'process.exit(3);'],
    ['an uncaught error', "throw new Error('boom');"],
  ] as const) {
    it(`writes waiting lines when the process ends by ${how} without closing it`, () => {
      const path = join(dir, `${how.replace(/\W/g, '-')}.jsonl`);
      const script = join(dir, `${how.replace(/\W/g, '-')}.ts`);
      writeFileSync(
        script,
        [
          `import { EpisodeLog } from ${JSON.stringify(EPISODE_LOG)};`,
          `import { startedRecord } from ${JSON.stringify(EPISODE_RECORD)};`,
          `const log = new EpisodeLog(${JSON.stringify(path)});`,
          `for (let i = 0; i < 3; i++) log.append(startedRecord('random', ${JSON.stringify(game)}, i, 7, 'card', 0));`,
          ending,
        ].join('\n'),
      );
      const child = spawnSync(process.execPath, [RUN_TS, script], { encoding: 'utf8' });
      expect(child.status).not.toBe(0);
      expect(linesOf(path)).toEqual([0, 1, 2]);
    });
  }
});
