/**
 * An episode's usage as its transcript tells it (for `arcbench verify`): every kept call's figures,
 * summed the way the runner sums reported calls. Undefined when the episode kept no transcript.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { addCall, emptyUsage, type UsageTotals } from '../../agent/usage.ts';
import type { EpisodeRecord } from '../../runfolder/episodeRecord.ts';
import { readTranscript } from '../../runfolder/transcriptFile.ts';

export async function transcriptUsage(runDir: string, episode: EpisodeRecord): Promise<UsageTotals | undefined> {
  if (episode.transcript === undefined || episode.transcript === null) return undefined;
  const path = join(runDir, episode.transcript);
  if (!existsSync(path)) return undefined;
  const totals = emptyUsage();
  for (const call of await readTranscript(path)) addCall(totals, call.usage);
  return totals;
}
