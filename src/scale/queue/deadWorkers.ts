/**
 * Cards still open when the run is over belong to workers that died (or did not sign off in time).
 * Where the service still holds them (a URL, or the server this run started), the coordinator closes
 * them with the affinity cookies the worker saved: the scorecard then shows the lost sessions'
 * actions, and those that other workers continued on the card (stalledEpisode.ts), which is why such a
 * card is closed only here, after every worker signed off. A worker's in-process service died with
 * it; its cards are listed as lost, with why.
 */
import type { ScheduledRun } from '../../runner/scheduler.ts';
import type { CardRecord } from './cardRecord.ts';

export async function settleDeadWorkersCards(cards: readonly CardRecord[], run: ScheduledRun, runId: string): Promise<void> {
  const { logger, cardEvents, target } = run;
  for (const card of cards) {
    if (card.state !== 'open') continue;
    if (run.experiment.config.target === 'reference') {
      const why = `card ${card.card_id} (${card.agent}) lived in the in-process service of worker ${card.worker}, which stopped before closing it; no service holds it any more`;
      logger.warn({ run: runId, card_id: card.card_id, worker: card.worker }, why);
      cardEvents?.lost?.(card.agent, card.card_id, why);
      continue;
    }
    target.transport.adoptAffinity?.(card.card_id, card.affinity);
    try {
      const scorecard = await target.transport.closeScorecard(card.card_id);
      logger.warn(
        { run: runId, card_id: card.card_id, worker: card.worker },
        `closed card ${card.card_id} (${card.agent}) that worker ${card.worker} left open`,
      );
      cardEvents?.closed(card.agent, card.card_id, { scorecard, error: null });
    } catch (error) {
      const why = `could not close card ${card.card_id} (${card.agent}) that worker ${card.worker} left open: ${(error as Error).message}`;
      logger.error({ run: runId, card_id: card.card_id, worker: card.worker }, why);
      cardEvents?.closed(card.agent, card.card_id, { scorecard: null, error: why });
    }
  }
}
