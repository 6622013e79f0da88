/**
 * Every call into an agent (create, act, finish) is raced against the episode's deadline and the run's
 * stop signal: an agent waiting for a model server that never answers must not wedge the run. A call
 * that loses the race is left behind (a promise cannot be cancelled; the agent's own `signal` tells it
 * to give up), and the episode ends: `time` at the deadline, the stop's own outcome on a stop.
 */
import type { EpisodeOutcome } from '../../agent/contract.ts';
import { ArcbenchError } from '../../errors.ts';

/** The agent did not settle a call in time; `outcome` is how its episode ends. */
export class AgentCallCut extends ArcbenchError {
  readonly outcome: EpisodeOutcome;
  constructor(outcome: EpisodeOutcome, message: string) {
    super('AGENT_CALL_CUT', message);
    this.outcome = outcome;
  }
}

export interface CallLimits {
  /** ms since epoch, or Infinity. */
  readonly deadline: number;
  /** The run's stop. */
  readonly signal: AbortSignal;
  /** Why the stop fired. */
  stopOutcome(): EpisodeOutcome;
  /** Time the call still gets once the stop fired, or once the deadline has passed (finish: a grace to clean up). */
  readonly graceMs?: number;
}

/**
 * The call's value, or AgentCallCut. A value that is not a promise passes straight through: most
 * agents decide synchronously, and racing them would cost timers and a microtask turn per action.
 */
export function raceAgentCall<T>(value: T | PromiseLike<T>, limits: CallLimits, what: string): T | Promise<T> {
  if (!isThenable(value)) return value;
  return new Promise<T>((resolve, reject) => {
    const timers: NodeJS.Timeout[] = [];
    const settle = (done: () => void) => {
      for (const timer of timers) clearTimeout(timer);
      limits.signal.removeEventListener('abort', onStop);
      done();
    };
    const cut = (outcome: EpisodeOutcome, why: string) => settle(() => reject(new AgentCallCut(outcome, `${what} ${why}`)));
    const grace = limits.graceMs ?? 0;
    const onStop = () => {
      const outcome = limits.stopOutcome();
      const why = outcome === 'time' ? "had not settled when the run's wall time ran out" : 'had not settled when the run was interrupted';
      timers.push(setTimeout(() => cut(outcome, why), grace));
    };
    if (limits.signal.aborted) onStop();
    else limits.signal.addEventListener('abort', onStop, { once: true });
    if (limits.deadline !== Infinity) {
      const remaining = Math.max(limits.deadline - Date.now(), 0) + grace;
      timers.push(
        setTimeout(
          () => cut('time', "had not settled when the episode's time (budgets.episode_seconds) ran out; the episode ends and the run goes on"),
          remaining,
        ),
      );
    }
    value.then(
      (result) => settle(() => resolve(result)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
