/**
 * Every Redis key of the worker pool, named in one place. A run lives under `arcbench:run:<id>:`; the
 * list of runs waiting for workers is one sorted set; episodes are jobs of a BullMQ queue of the run's
 * own, whose job ids are the episode keys.
 */
const ROOT = 'arcbench';

/** BullMQ's prefix for its own keys: `arcbench:bull:<queue>:…`. */
export const BULL_PREFIX = `${ROOT}:bull`;

/** Runs that want workers, scored by when they started (workers join the oldest first). */
export const ACTIVE_RUNS = `${ROOT}:runs`;

/** The shared request budgets (rate-limiter-flexible's key prefix), one per origin and API key. */
export const RATE_PREFIX = `${ROOT}:rate`;

/** How long a finished run's keys stay for a look with redis-cli. */
export const FINISHED_RUN_TTL_SECONDS = 24 * 3600;

export function runKeys(runId: string) {
  const base = `${ROOT}:run:${runId}`;
  return {
    /** BullMQ queue name (no `:` allowed there). */
    queue: `arcbench.${runId}`,
    /** What workers need to play the run (RunMeta as JSON). */
    meta: `${base}:meta`,
    /** `running`, `stopping:<outcome>` or `ended` (RunState). */
    state: `${base}:state`,
    /** worker id → who it is (hash). */
    workers: `${base}:workers`,
    /** Present while the worker is alive; it expires when its heartbeats stop. */
    alive: (workerId: string) => `${base}:alive:${workerId}`,
    /** card id → CardRecord (hash), written when a worker opens or closes a card. */
    cards: `${base}:cards`,
    /** job id → the attempts that started the episode (hash), to know which were lost with a worker. */
    attempts: `${base}:attempts`,
    /** worker id → its transport's request counts (hash), written when it leaves the run. */
    stats: `${base}:stats`,
    /** worker id → why it cannot play this run (hash), for the coordinator to tell the user. */
    refusals: `${base}:refusals`,
    all(): string[] {
      return [this.meta, this.state, this.workers, this.cards, this.attempts, this.stats, this.refusals];
    },
  };
}

export type RunKeys = ReturnType<typeof runKeys>;
