/**
 * When each level was first completed, in wall seconds from the episode's start: the time a level took
 * is what a user weighs beside its actions and dollars, and only the playing loop sees it happen.
 */
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';

/**
 * Notes the levels an answer shows completed for the first time; each run starts from the first level,
 * so only new ones count. An episode a resume continued is left without times: when its earlier levels
 * were completed died with the process that played them, and a time noted now would be made up.
 */
export function noteLevelTimes(record: EpisodeRecord, levelsCompleted: number, now = Date.now()): void {
  if (record.continued !== undefined) return;
  const known = record.level_seconds?.length ?? 0;
  if (levelsCompleted <= known) return;
  const seconds = (now - Date.parse(record.started_at)) / 1000;
  record.level_seconds = [...(record.level_seconds ?? []), ...new Array<number>(levelsCompleted - known).fill(seconds)];
}
