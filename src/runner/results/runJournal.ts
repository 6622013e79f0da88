/**
 * run.json while an attempt runs: written when the attempt starts (status `running`), and again each
 * time one of its cards opens or closes (writeResults writes the attempt's last one). Each write is whole and atomic (writeRunReport), so
 * a process killed at any moment leaves the last complete run.json: the cards it had open, the plan and
 * its fingerprint, which is what a resume reads.
 */
import type { CardEvents, ClosedCard } from '../scorecards.ts';
import { RunFolderWriteError } from '../../errors.ts';
import { type CardEntry, type RunReport, writeRunReport } from '../../runfolder/runReport.ts';

export class RunJournal implements CardEvents {
  readonly #report: RunReport;
  readonly #runDir: string;
  readonly #attempt: number;
  readonly #target: string;
  /** Told when a write fails (a full disk): the cards must still be closed, so a card event never throws. */
  onWriteFailure: ((cause: string) => void) | undefined;

  /** Writes `start` (the attempt's first run.json) at once; a failure there is thrown: nothing has been played. */
  constructor(runDir: string, start: RunReport, attempt: number, target: string) {
    this.#runDir = runDir;
    this.#report = start;
    this.#attempt = attempt;
    this.#target = target;
    writeRunReport(runDir, start);
  }

  #write(): void {
    try {
      writeRunReport(this.#runDir, this.#report);
    } catch (error) {
      if (!(error instanceof RunFolderWriteError)) throw error;
      this.onWriteFailure?.(error.message);
    }
  }

  /** Every card of every attempt, as last written. */
  get cards(): readonly CardEntry[] {
    return this.#report.cards;
  }

  opened(label: string, cardId: string, affinity: readonly string[], where?: { worker: string; target: string }): void {
    this.#report.cards.push({
      card_id: cardId,
      agent: label,
      target: where?.target ?? this.#target,
      attempt: this.#attempt,
      opened_at: new Date().toISOString(),
      state: 'open',
      closed_at: null,
      closed_by_attempt: null,
      scorecard: null,
      close_error: null,
      score_differences: null,
      affinity: [...affinity],
      ...(where === undefined ? {} : { worker: where.worker }),
    });
    this.#write();
  }

  lost(_label: string, cardId: string, why: string): void {
    const card = this.#report.cards.find((c) => c.card_id === cardId && c.attempt === this.#attempt);
    if (card === undefined) return;
    Object.assign(card, { state: 'lost', closed_by_attempt: this.#attempt, close_error: why } satisfies Partial<CardEntry>);
    this.#write();
  }

  closed(_label: string, cardId: string, result: ClosedCard): void {
    const card = this.#report.cards.find((c) => c.card_id === cardId && (c.attempt === this.#attempt || c.continued_by_attempt === this.#attempt));
    if (card === undefined) return;
    Object.assign(card, {
      state: result.scorecard ? 'closed' : 'close_failed',
      closed_at: result.scorecard ? new Date().toISOString() : null,
      closed_by_attempt: this.#attempt,
      scorecard: result.scorecard,
      close_error: result.error,
    } satisfies Partial<CardEntry>);
    this.#write();
  }
}
