/**
 * An episode's usage as its transcript tells it (for `arcbench verify`): every kept call's figures,
 * summed the way the runner sums reported calls. Undefined when the episode kept no transcript.
 */
import { addCall, emptyUsage, type UsageTotals } from '../../agent/usage.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { episodeTranscript } from '../../runfolder/episodeFiles.ts';

export async function transcriptUsage(runDir: string, episode: EpisodeRecord): Promise<UsageTotals | undefined> {
  const calls = await episodeTranscript(runDir, episode);
  if (calls === undefined) return undefined;
  const totals = emptyUsage();
  for (const call of calls) addCall(totals, call.usage);
  return totals;
}
