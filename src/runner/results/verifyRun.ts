/**
 * `arcbench verify`: checks a run folder against itself. Every episode's runs are rebuilt from its
 * recording by the runner's own counting (RunLedger) and scored by the service's scoring code; each
 * episode's usage is summed again from its model calls and, where kept, its transcript; each agent's
 * score and usage in run.json are recomputed from episodes.jsonl; and every file is checked against
 * manifest.json. What differs comes back as sentences, one each; none means the folder agrees.
 */
import type { FrameResponse } from '../../protocol/index.ts';
import type { RecordingEntry } from '../../recording/recordingReader.ts';
import { episodeRecording } from '../../runfolder/episodeFiles.ts';
import { addCall, emptyUsage, sumUsage, type UsageTotals } from '../../agent/usage.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { RunLedger } from '../../episode/runLedger.ts';
import type { RecordedRun } from '../../runfolder/episodeRecord.ts';
import { episodeScore, gamesWithoutBaselines, knewBaselines, scoreEpisodes } from '../../analysis/localScoring.ts';
import { currentEpisodes, readRunFolder } from '../../runfolder/readRunFolder.ts';
import { manifestDifferences } from '../../runfolder/manifest.ts';
import type { RunReport } from '../../runfolder/runReport.ts';
import { transcriptUsage } from './transcriptUsage.ts';

export interface VerifyResult {
  /** What differs, one sentence each; empty when everything agrees. */
  readonly problems: string[];
  /** What was checked, for the summary line. */
  readonly checked: { episodes: number; recordings: number; transcripts: number; files: number };
}

export async function verifyRunFolder(dir: string): Promise<VerifyResult> {
  const folder = readRunFolder(dir);
  const problems: string[] = [];
  const checked = { episodes: 0, recordings: 0, transcripts: 0, files: 0 };
  const competition = isCompetition(folder.report);
  // Each line as written (baselines a closed card gave later are no part of it); run.json was scored with them.
  for (const episode of currentEpisodes(folder.records)) {
    checked.episodes++;
    const where = `${episode.agent}/${episode.game_id}/${episode.episode}`;
    problems.push(...countDifferences(where, episode));
    const recording = episodeRecording(dir, episode);
    if (recording === 'missing') problems.push(`${where}: its recording ${episode.recording} is missing`);
    else if (recording !== 'none') {
      checked.recordings++;
      const replayed = await unlessUnreadable(where, () => replayRecording(recording, episode, competition));
      problems.push(...(typeof replayed === 'string' ? [replayed] : runDifferences(where, episode.runs, replayed)));
    }
    problems.push(...usageDifferences(`${where} usage (episodes.jsonl) against its model calls`, episode.usage, usageOfCalls(episode)));
    const fromTranscript = await unlessUnreadable(where, () => transcriptUsage(dir, episode));
    if (typeof fromTranscript === 'string') problems.push(fromTranscript);
    else if (fromTranscript !== undefined) {
      checked.transcripts++;
      problems.push(...usageDifferences(`${where} usage (episodes.jsonl) against its transcript`, episode.usage, fromTranscript));
    }
  }
  problems.push(...agentDifferences(folder.report, folder.episodes));
  const files = manifestDifferences(dir);
  checked.files = files.checked;
  problems.push(...files.problems);
  return { problems, checked };
}

/** The value, or a sentence saying why a file of the episode could not be read. */
async function unlessUnreadable<T>(where: string, read: () => Promise<T>): Promise<T | string> {
  try {
    return await read();
  } catch (error) {
    return `${where}: ${(error as Error).message}`;
  }
}

function isCompetition(report: RunReport): boolean {
  const config = report.config as { scorecard?: { competition_mode?: boolean } } | undefined;
  return config?.scorecard?.competition_mode === true;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** The record's own totals and score, recomputed from its runs with the service's scoring code. */
function countDifferences(where: string, episode: EpisodeRecord): string[] {
  const problems: string[] = [];
  const actions = episode.runs.reduce((sum, run) => sum + run.actions, 0);
  const resets = episode.runs.reduce((sum, run) => sum + run.resets, 0);
  const levels = episode.runs.reduce((best, run) => Math.max(best, run.levels_completed), 0);
  if (episode.actions !== actions) problems.push(`${where}: actions ${episode.actions} in episodes.jsonl, ${actions} from its runs`);
  if (episode.resets !== resets) problems.push(`${where}: resets ${episode.resets} in episodes.jsonl, ${resets} from its runs`);
  if (episode.levels_completed !== levels) problems.push(`${where}: levels_completed ${episode.levels_completed} in episodes.jsonl, ${levels} from its runs`);
  // Without baselines the score is unknown (null), never a number to compare.
  const score = knewBaselines(episode) ? episodeScore(episode) : null;
  const agrees = score === null || episode.score === null ? score === episode.score : close(episode.score, score);
  if (!agrees) problems.push(`${where}: score ${episode.score} in episodes.jsonl, ${score} recomputed by the service's scoring code`);
  return problems;
}

/**
 * The episode's runs as its recording tells them: every answer counted again, exactly as the runner
 * counted it while playing (a RESET answer, then each action's). Runs are numbered with the record's
 * own sequence numbers, which say only in what order runs began across the experiment.
 */
async function replayRecording(entries: AsyncIterable<RecordingEntry>, episode: EpisodeRecord, competition: boolean): Promise<RecordedRun[]> {
  const sequences = episode.runs.map((run) => run.sequence);
  let next = 0;
  const ledger = new RunLedger(() => sequences[next++] ?? -1, !competition);
  let first = true;
  for await (const entry of entries) {
    const answer = entry.data as unknown as FrameResponse;
    if (first || entry.data.action_input.id === 0) ledger.recordReset(answer);
    else ledger.recordAction(answer);
    first = false;
  }
  return first ? [] : ledger.recordedRuns();
}

const RUN_FIELDS = ['guid', 'actions', 'resets', 'levels_completed', 'state'] as const;

function runDifferences(where: string, recorded: readonly RecordedRun[], replayed: readonly RecordedRun[]): string[] {
  if (recorded.length !== replayed.length) return [`${where}: ${recorded.length} run(s) in episodes.jsonl, ${replayed.length} in its recording`];
  const problems: string[] = [];
  recorded.forEach((run, index) => {
    const again = replayed[index]!;
    for (const field of RUN_FIELDS) {
      if (run[field] !== again[field]) problems.push(`${where}: run ${index + 1} ${field} ${run[field]} in episodes.jsonl, ${again[field]} in its recording`);
    }
    if (run.completion_actions.join(',') !== again.completion_actions.join(',')) {
      problems.push(
        `${where}: run ${index + 1} completion_actions [${run.completion_actions}] in episodes.jsonl, [${again.completion_actions}] in its recording`,
      );
    }
  });
  return problems;
}

function usageOfCalls(episode: EpisodeRecord): UsageTotals {
  const totals = emptyUsage();
  for (const call of episode.model_calls ?? []) addCall(totals, call);
  return totals;
}

const USAGE_FIELDS = ['input_tokens', 'cached_input_tokens', 'reasoning_tokens', 'output_tokens', 'calls'] as const;

/** Where `stated` and `recomputed` differ, as sentences starting with `what`. */
export function usageDifferences(what: string, stated: UsageTotals, recomputed: UsageTotals): string[] {
  const problems: string[] = [];
  for (const field of USAGE_FIELDS) {
    if (stated[field] !== recomputed[field]) problems.push(`${what}: ${field} ${stated[field]}, recomputed ${recomputed[field]}`);
  }
  const [said, again] = [stated.cost_usd, recomputed.cost_usd];
  if (said === null || again === null ? said !== again : !close(said, again)) problems.push(`${what}: cost_usd ${said}, recomputed ${again}`);
  return problems;
}

/** Each agent's score and usage in run.json, recomputed from its episodes. */
function agentDifferences(report: RunReport, episodes: readonly EpisodeRecord[]): string[] {
  const problems: string[] = [];
  for (const agent of report.agents) {
    const own = episodes.filter((episode) => episode.agent === agent.label);
    // Unknown (null) where a game's baselines were, as run.json says it.
    const score = gamesWithoutBaselines(own).length > 0 ? null : scoreEpisodes(own).score;
    const stated = (agent.local_score as { score?: number | null }).score;
    const agrees = stated === undefined || (stated === null || score === null ? stated === score : close(stated, score));
    if (!agrees) problems.push(`${agent.label}: score ${stated} in run.json, ${score} recomputed from episodes.jsonl`);
    problems.push(...usageDifferences(`${agent.label}: usage in run.json against episodes.jsonl`, agent.usage, sumUsage(own.map((episode) => episode.usage))));
  }
  return problems;
}
