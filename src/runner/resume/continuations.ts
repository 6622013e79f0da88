/**
 * Which episodes a resume continues from their checkpoints (episode/episodeCheckpoint.ts), and which
 * it plays again from a new RESET and why. An episode continues on its own session, hence on its own
 * card: such a card is not closed by the resume (staleCards.ts closes the others) but taken over by
 * this attempt, which plays the agent's other episodes on it too and closes it at the end. Whether the
 * card is still open is asked of the service before anything is played; how long it has left before
 * the service's idle close is told when the service says when its last action was.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Transport } from '../../client/transport.ts';
import { ApiError } from '../../protocol/index.ts';
import { CHECKPOINT_FORMAT, type EpisodeCheckpoint, parseCheckpoint } from '../../runfolder/checkpointFile.ts';
import { describeEpisodeKey, episodeKey, keyOfSpec } from '../../runfolder/episodeKey.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import type { CardEntry } from '../../runfolder/runReport.ts';
import { CHECKPOINTS_FOLDER, checkpointFileName } from '../../runfolder/fileNames.ts';
import type { OpenTarget } from '../targets.ts';

/** The hosted service closes a card after this long without a counted action (docs/protocol.md §5). */
export const HOSTED_IDLE_CLOSE_MINUTES = 15;

export interface ContinuationPlan {
  /** The checkpoint of each episode to continue, by episode key. */
  readonly continueFrom: ReadonlyMap<string, EpisodeCheckpoint>;
  /** Episodes that were in flight with a checkpoint and start over, and why. */
  readonly restartReasons: ReadonlyMap<string, string>;
  /** The card this attempt takes over, by agent label. */
  readonly cards: ReadonlyMap<string, CardEntry>;
  /** One past the highest run number the continued episodes hold (new runs are numbered after them). */
  readonly nextRunSequence: number;
  readonly notes: readonly string[];
}

export const NO_CONTINUATIONS: ContinuationPlan = { continueFrom: new Map(), restartReasons: new Map(), cards: new Map(), nextRunSequence: 0, notes: [] };

export interface ContinuationOptions {
  readonly dir: string;
  readonly attempt: number;
  readonly toPlay: readonly EpisodeSpec[];
  readonly target: OpenTarget;
  /** Why nothing can be continued this time (the worker pool, competition cards), or undefined. */
  readonly disabled: string | undefined;
  readonly logger: Logger;
}

/** The checkpoints in the folder; unreadable ones (one cut short by a kill mid-write) are skipped. */
export function readCheckpoints(dir: string): EpisodeCheckpoint[] {
  const folder = join(dir, CHECKPOINTS_FOLDER);
  if (!existsSync(folder)) return [];
  const found: EpisodeCheckpoint[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.endsWith('.json')) continue;
    // Unreadable: the episode is played again from a new RESET, as without checkpoints.
    const checkpoint = parseCheckpoint(readFileSync(join(folder, name), 'utf8'));
    if (checkpoint !== undefined) found.push(checkpoint);
  }
  return found;
}

/**
 * Decides for each checkpoint of an episode still to play; `cards` are the run's cards (the one taken
 * over is marked `continued_by_attempt`). Checkpoints of finished episodes are removed.
 */
export async function planContinuations(cards: CardEntry[], options: ContinuationOptions): Promise<ContinuationPlan> {
  const toPlay = new Set(options.toPlay.map(keyOfSpec));
  const restartReasons = new Map<string, string>();
  const candidates = new Map<string, EpisodeCheckpoint[]>();
  for (const checkpoint of readCheckpoints(options.dir)) {
    const key = episodeKey(checkpoint.agent, checkpoint.game_id, checkpoint.episode);
    if (!toPlay.has(key)) {
      // Its episode finished (its record is in episodes.jsonl): the process died before removing it.
      rmSync(join(options.dir, CHECKPOINTS_FOLDER, checkpointFileName(checkpoint.game_id, checkpoint.agent, checkpoint.episode)), { force: true });
      continue;
    }
    const why = notContinuable(checkpoint, cards, options);
    if (why !== undefined) restartReasons.set(key, why);
    else candidates.set(checkpoint.card_id, [...(candidates.get(checkpoint.card_id) ?? []), checkpoint]);
  }
  const continueFrom = new Map<string, EpisodeCheckpoint>();
  const taken = new Map<string, CardEntry>();
  const notes: string[] = [];
  for (const [cardId, checkpoints] of candidates) {
    const card = cards.find((c) => c.card_id === cardId)!;
    const verdict = taken.has(card.agent) ? `another card of agent "${card.agent}" is continued` : await cardStillOpen(card, options.target.transport);
    if (typeof verdict === 'string') {
      for (const checkpoint of checkpoints) restartReasons.set(keyOf(checkpoint), verdict);
      continue;
    }
    card.continued_by_attempt = options.attempt;
    taken.set(card.agent, card);
    for (const checkpoint of checkpoints) continueFrom.set(keyOf(checkpoint), checkpoint);
    notes.push(continuingNote(card, checkpoints, verdict.lastUpdate));
  }
  for (const [key, why] of restartReasons) notes.push(`${describeEpisodeKey(key)} was in flight and starts over from a new RESET: ${why}`);
  for (const note of notes) options.logger.warn(note);
  const sequences = [...continueFrom.values()].flatMap((c) => c.ledger.runs.map((run) => run.sequence + 1));
  return { continueFrom, restartReasons, cards: taken, nextRunSequence: Math.max(0, ...sequences), notes };
}

function keyOf(checkpoint: EpisodeCheckpoint): string {
  return episodeKey(checkpoint.agent, checkpoint.game_id, checkpoint.episode);
}

/** Why this checkpoint's session cannot be continued, as far as the folder tells; undefined: ask the service. */
function notContinuable(checkpoint: EpisodeCheckpoint, cards: readonly CardEntry[], options: ContinuationOptions): string | undefined {
  if (checkpoint.format !== CHECKPOINT_FORMAT) return `its checkpoint is of another format (${String(checkpoint.format)})`;
  if (!checkpoint.continuable) return checkpoint.not_continuable ?? 'its session cannot be continued';
  if (options.disabled !== undefined) return options.disabled;
  if (checkpoint.target !== options.target.transport.target) {
    return `its session is on ${checkpoint.target}, and this attempt plays on ${options.target.transport.target}`;
  }
  const card = cards.find((c) => c.card_id === checkpoint.card_id);
  if (card === undefined) return `run.json does not list its card ${checkpoint.card_id}`;
  if (card.state !== 'open') return `its card ${checkpoint.card_id} is ${card.state.replace('_', ' ')}`;
  return undefined;
}

/** The card's last update when the service still has it open; else why it cannot be continued. `transport` adopts its affinity. */
export async function cardStillOpen(
  card: { readonly card_id: string; readonly affinity: readonly string[] },
  transport: Transport,
): Promise<{ lastUpdate: string | undefined } | string> {
  transport.adoptAffinity?.(card.card_id, card.affinity);
  try {
    const answer = await transport.getScorecard(card.card_id);
    if (answer.published_at != null) return `the service closed its card ${card.card_id} at ${answer.published_at}`;
    return { lastUpdate: answer.last_update ?? undefined };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return `the service no longer knows its card ${card.card_id} (closed idle, or expired)`;
    return `its card ${card.card_id} could not be read from the service (${(error as Error).message})`;
  }
}

function continuingNote(card: CardEntry, checkpoints: readonly EpisodeCheckpoint[], lastUpdate: string | undefined): string {
  const episodes = checkpoints.map((c) => `${c.game_id} #${c.episode} from step ${c.pending === undefined ? c.step : `${c.step}/${c.step + 1}`}`).join(', ');
  const head = `continuing card ${card.card_id} (${card.agent}, attempt ${card.attempt}): ${episodes}`;
  const last = lastUpdate === undefined ? Number.NaN : Date.parse(lastUpdate);
  if (Number.isNaN(last)) return `${head}; the service did not say when its last action was, so how long the card has before its idle close is unknown`;
  const left = HOSTED_IDLE_CLOSE_MINUTES - (Date.now() - last) / 60_000;
  const idle = `the hosted service closes a card ${HOSTED_IDLE_CLOSE_MINUTES} minutes after its last action (${lastUpdate}; a server may be configured otherwise)`;
  return left > 0
    ? `${head}; about ${left.toFixed(1)} minutes left: ${idle}`
    : `${head}; past ${HOSTED_IDLE_CLOSE_MINUTES} minutes idle, yet still open: ${idle}`;
}
