/**
 * A second client of the agent protocol, in Perl, written from docs/agent-protocol.md alone
 * (test/fixtures/perl/hex_agent.pl, core modules only), plays every game as an executable `use:`.
 * Its reasoning carries a checksum of each grid it decoded: equal to the checksum of the frame the
 * recording holds, the hex grids are read as the document says.
 */
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { readRecording } from '../src/recording/recordingReader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { processesMentioning } from './support/pythonAgents.ts';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-perl-agent-'));
  copyFileSync(join(import.meta.dirname, 'fixtures', 'perl', 'hex_agent.pl'), join(dir, 'hex_agent.pl'));
  chmodSync(join(dir, 'hex_agent.pl'), 0o755);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const checksum = (rows: number[][]) => rows.flat().reduce((sum, cell, i) => sum + cell * ((i % 251) + 1), 0);

describe('an agent in Perl, from the protocol document', () => {
  it('plays every game; each grid it decoded matches the recording', async () => {
    writeFileSync(
      join(dir, 'exp.yaml'),
      'name: perl\ngames: all\nagents: [{ use: ./hex_agent.pl }]\nbudgets: { max_actions: 15 }\nrecordings: jsonl\nconcurrency: 3\n',
    );
    const experiment = await loadExperiment(join(dir, 'exp.yaml'));
    expect(experiment.agents[0]!.label).toBe('perlhex');
    const out = join(dir, 'out');
    await runExperiment(experiment, { out });
    const episodes = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    expect(episodes.length).toBe(6);
    let clicks = 0;
    for (const episode of episodes) {
      expect(episode.error).toBeUndefined();
      expect(['budget', 'win']).toContain(episode.outcome);
      const entries = [];
      for await (const entry of readRecording(join(out, episode.recording!))) entries.push(entry.data);
      for (let k = 1; k < entries.length; k++) {
        const seen = entries[k - 1]!.frame.at(-1)!;
        const sent = entries[k]!.action_input;
        expect(sent.reasoning).toEqual({ checksum: checksum(seen), language: 'perl' });
        if (sent.id === 6) {
          clicks++;
          // The click is on a cell of the grid the agent saw, as decoded: not the most common colour.
          const counts = new Map<number, number>();
          for (const cell of seen.flat()) counts.set(cell, (counts.get(cell) ?? 0) + 1);
          const background = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
          expect(seen[sent.data!.y!]![sent.data!.x!]).not.toBe(background);
        }
      }
    }
    expect(clicks).toBeGreaterThan(0);
    expect(processesMentioning(dir)).toEqual([]);
  }, 120_000);
});
