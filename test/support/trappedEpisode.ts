/**
 * What the kill-and-resume suites share: an experiment of one episode of the checkpoint agent
 * (test/fixtures/checkpointAgent.ts), which writes a marker and waits at a trap step so that a test can
 * kill its run there, and how a resumed episode is compared with the uninterrupted one: the service's
 * commands as moves, and the recording's lines.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type RecordingEntry, readRecording } from '../../src/recording/recordingReader.ts';
import { loadExperiment } from '../../src/runner/config/loader.ts';
import type { EpisodeRecord } from '../../src/runfolder/episodeRecord.ts';
import { runExperiment } from '../../src/runner/runExperiment.ts';
import { type LoggedCommand, startActionLogProxy } from './actionLogProxy.ts';

const CHECKPOINT_AGENT = join(import.meta.dirname, '..', 'fixtures', 'checkpointAgent.ts');
/** The episode's length, and the step whose decision the trap holds. */
export const TRAPPED_ACTIONS = 30;
export const TRAP_STEP = 7;

export interface TrappedExperiment {
  readonly name: string;
  /** The experiment's `target:` as YAML. */
  readonly target: string;
  /** The file the agent writes at the trap; the trap does not fire when it exists already. */
  readonly marker: string;
  /** Milliseconds the agent takes to decide (in-process, an episode writes its in-flight note after a second). */
  readonly decideMs?: number;
  readonly recordings?: 'gzip' | 'jsonl';
}

export function trappedExperimentYaml(experiment: TrappedExperiment): string {
  const { name, target, marker, decideMs = 0, recordings = 'gzip' } = experiment;
  return [
    `name: ${name}`,
    `target: ${target}`,
    'games: [flod]',
    'agents:',
    `  - use: ${JSON.stringify(CHECKPOINT_AGENT)}`,
    '    label: ck',
    `    params: { trap: { game: flod, episode: 0, step: ${TRAP_STEP}, marker: ${JSON.stringify(marker)} }, decide_ms: ${decideMs} }`,
    'episodes: 1',
    'seed: 5',
    `budgets: { max_actions: ${TRAPPED_ACTIONS} }`,
    'concurrency: 1',
    `recordings: ${recordings}`,
    '',
  ].join('\n');
}

/** The commands the service saw, clicks with their cell. */
export const commandMoves = (log: readonly LoggedCommand[]) => log.map((c) => (c.x === undefined ? c.command : `${c.command}@${c.x},${c.y}`));

/** An episode's recording, line by line. */
export async function recordingOf(runDir: string, record: EpisodeRecord): Promise<RecordingEntry[]> {
  const entries: RecordingEntry[] = [];
  for await (const entry of readRecording(join(runDir, record.recording!))) entries.push(entry);
  return entries;
}

/** A recording's lines without what differs from session to session (time, guid). */
export const playedLines = (entries: readonly RecordingEntry[]) => entries.map(({ data }) => ({ ...data, guid: '' }));

/** The episode played whole: the service's commands, its record and its recording. */
export interface UninterruptedEpisode {
  readonly log: LoggedCommand[];
  readonly record: EpisodeRecord;
  readonly recording: RecordingEntry[];
}

/**
 * The episode a resumed one is compared with, played in this process through a proxy that logs the
 * service's commands; its trap's marker is there already, so the trap never fires. `yamlFor` makes the
 * experiment from the proxy's URL and the marker.
 */
export async function playUninterrupted(serverUrl: string, dir: string, yamlFor: (url: string, marker: string) => string): Promise<UninterruptedEpisode> {
  const proxy = await startActionLogProxy(serverUrl);
  try {
    const marker = join(dir, 'reference.marker');
    writeFileSync(marker, '');
    writeFileSync(join(dir, 'reference.yaml'), yamlFor(proxy.url, marker));
    const result = await runExperiment(await loadExperiment(join(dir, 'reference.yaml')), { out: join(dir, 'reference') });
    const record = result.episodes[0]!;
    expect(record.actions).toBe(TRAPPED_ACTIONS);
    return { log: [...proxy.log], record, recording: await recordingOf(result.runDir, record) };
  } finally {
    await proxy.close();
  }
}
