/**
 * An episode as a BullMQ job: its id is the episode's key (so adding it twice adds it once), its data
 * what a worker needs besides the experiment (the game as the coordinator listed it, the seed), and its
 * result the episode's record.
 */
import { z } from 'zod';
import { gameDescriptorSchema, ISSUE_OPTIONS, issueLines } from '../../protocol/index.ts';
import type { GameDescriptor } from '../../protocol/index.ts';
import { keyOfSpec } from '../../runfolder/episodeKey.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import { QueueRunError } from './runMeta.ts';

export const EPISODE_JOB = 'episode';

const episodeJobSchema = z.object({
  agent: z.string(),
  game: gameDescriptorSchema,
  index: z.int().min(0),
  seed: z.number(),
  /** A resume's: the episode was in flight with a checkpoint and starts over; why (its record says so). */
  restart_reason: z.string().optional(),
  /** A resume's: the episode goes on from its checkpoint in the run folder, on this card it took over. */
  continue_on: z.object({ card_id: z.string(), affinity: z.array(z.string()) }).optional(),
});

/** What a resume says of an episode in flight when its process died. */
export type ResumedStart = { readonly continueOn: NonNullable<EpisodeJobData['continue_on']> } | { readonly restartReason: string };
export type EpisodeJobData = z.infer<typeof episodeJobSchema>;

/**
 * BullMQ job ids may not hold `:` nor be a bare integer; the key's parts are percent-encoded (its NUL
 * separators become %00), which keeps them apart and readable in redis-cli.
 */
export function jobIdOf(key: string): string {
  return `ep.${encodeURIComponent(key)}`;
}

export function keyOfJobId(jobId: string): string {
  return decodeURIComponent(jobId.slice('ep.'.length));
}

export function episodeJob(spec: EpisodeSpec, resumed?: ResumedStart): { name: string; data: EpisodeJobData; opts: { jobId: string } } {
  const resumedData = resumed === undefined ? {} : 'continueOn' in resumed ? { continue_on: resumed.continueOn } : { restart_reason: resumed.restartReason };
  return {
    name: EPISODE_JOB,
    data: {
      agent: spec.agent.label,
      game: spec.game,
      index: spec.index,
      seed: spec.seed,
      ...resumedData,
    },
    opts: { jobId: jobIdOf(keyOfSpec(spec)) },
  };
}

export function parseEpisodeJob(data: unknown, jobId: string): EpisodeJobData & { game: GameDescriptor } {
  const parsed = episodeJobSchema.safeParse(data, ISSUE_OPTIONS);
  if (!parsed.success) throw new QueueRunError(`job ${jobId} is not an episode of this arcbench:\n${issueLines(parsed.error.issues).join('\n')}`);
  return parsed.data as EpisodeJobData & { game: GameDescriptor };
}
