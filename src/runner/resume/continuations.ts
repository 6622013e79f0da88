/**
 * Which episodes a resume continues from their checkpoints (runfolder/checkpointFile.ts), and which
 * it plays again from a new RESET and why. An episode continues on its own session, hence on its own
 * card: such a card is not closed by the resume (staleCards.ts closes the others) but taken over by
 * this attempt, which plays the agent's other episodes on it too and closes it at the end. Whether the
 * card is still open is asked of the service before anything is played; how long it has left before
 * the service's idle close is told when the service says when its last action was.
 */
import type { Logger } from 'pino';
import { type ContinuabilityContext, cardStillOpen, notContinuableHere } from '../../episode/continuability.ts';
import type { EpisodeSpec } from '../../episode/runEpisode.ts';
import type { EpisodeCheckpoint, StoredCheckpoint } from '../../runfolder/checkpointFile.ts';
import { checkpointFileOf, readCheckpointFolder, removeCheckpointFile } from '../../runfolder/checkpointReading.ts';
import { describeEpisodeKey, episodeKey, keyOfSpec } from '../../runfolder/episodeKey.ts';
import type { CardEntry } from '../../runfolder/runReport.ts';
import { HOSTED_IDLE_CLOSE_MINUTES } from '../../protocol/index.ts';
import type { OpenTarget } from '../targets.ts';

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
  /** Episodes that began and have no record (their recording is in the folder), and why one without a checkpoint starts over. */
  readonly inFlight?: ReadonlySet<string>;
  readonly inFlightReason?: string;
  readonly logger: Logger;
}

/** The checkpoints in the folder; unreadable ones (one cut short by a kill mid-write) are left out. */
export function readCheckpoints(dir: string): StoredCheckpoint[] {
  return readCheckpointFolder(dir).checkpoints;
}

/**
 * Decides for each checkpoint of an episode still to play; `cards` are the run's cards (the one taken
 * over is marked `continued_by_attempt`). Checkpoints of finished episodes are removed.
 */
export async function planContinuations(cards: CardEntry[], options: ContinuationOptions): Promise<ContinuationPlan> {
  const { candidates, restartReasons } = sortCheckpoints(cards, options);
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

/**
 * The folder's checkpoints of episodes still to play, by card, when the run's files allow continuing
 * them; else why not (an unreadable file's reason names it). Those of finished episodes are removed.
 */
function sortCheckpoints(cards: readonly CardEntry[], options: ContinuationOptions) {
  const toPlay = new Map(options.toPlay.map((spec) => [checkpointFileOf(spec.game.game_id, spec.agent.label, spec.index), keyOfSpec(spec)]));
  const playing = new Set(toPlay.values());
  const context: ContinuabilityContext = {
    player: 'this attempt',
    cardList: 'the cards of run.json',
    transport: options.target.transport,
    disabled: options.disabled,
  };
  const restartReasons = new Map<string, string>();
  const candidates = new Map<string, EpisodeCheckpoint[]>();
  const { checkpoints, unreadable } = readCheckpointFolder(options.dir);
  for (const { file, reason } of unreadable) {
    const key = toPlay.get(file);
    if (key === undefined) removeCheckpointFile(options.dir, file);
    else restartReasons.set(key, reason);
  }
  for (const checkpoint of checkpoints) {
    const key = keyOf(checkpoint);
    // Its episode finished (its record is in episodes.jsonl): the process died before removing it.
    if (!playing.has(key)) removeCheckpointFile(options.dir, checkpointFileOf(checkpoint.game_id, checkpoint.agent, checkpoint.episode));
    else {
      const why = notContinuableHere(
        checkpoint,
        cards.find((c) => c.card_id === checkpoint.card_id),
        context,
      );
      if (why !== undefined || !checkpoint.continuable) restartReasons.set(key, why ?? 'its session cannot be continued');
      else candidates.set(checkpoint.card_id, [...(candidates.get(checkpoint.card_id) ?? []), checkpoint]);
    }
  }
  const decided = new Set([...restartReasons.keys(), ...[...candidates.values()].flat().map(keyOf)]);
  for (const key of options.inFlight ?? []) {
    if (playing.has(key) && !decided.has(key)) restartReasons.set(key, options.inFlightReason ?? 'it was in flight when its process died');
  }
  return { candidates, restartReasons };
}

function keyOf(checkpoint: StoredCheckpoint): string {
  return episodeKey(checkpoint.agent, checkpoint.game_id, checkpoint.episode);
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
