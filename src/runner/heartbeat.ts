/**
 * The run's heartbeat: a decision that has not answered after half a minute is reported (`agent
 * "llm" has been deciding step 3 of lamp-… (episode 0) for 60 s`), then again each time its wait
 * doubles, to the log (CI's readable lines) and the terminal's live line. Without it a long model call,
 * or an agent that hangs, left the output silent until the episode's deadline.
 */
import type { Decision, DecisionWatch } from '../episode/decisionWatch.ts';

export interface HeartbeatTiming {
  /** How often the decisions under way are looked at. */
  readonly everyMs: number;
  /** A decision's first report; each next one comes when its wait has doubled. */
  readonly firstAfterMs: number;
}

export const HEARTBEAT: HeartbeatTiming = { everyMs: 5_000, firstAfterMs: 30_000 };

export function decidingSentence(decision: Decision, waitedMs: number): string {
  return `agent "${decision.agent}" has been deciding step ${decision.step} of ${decision.gameId} (episode ${decision.episode}) for ${Math.round(waitedMs / 1000)} s`;
}

/** Starts looking; the function returned stops it. `say` gets each sentence. */
export function startHeartbeat(watch: DecisionWatch, say: (sentence: string) => void, timing: HeartbeatTiming = HEARTBEAT): () => void {
  const nextReport = new WeakMap<Decision, number>();
  const timer = setInterval(() => {
    const now = Date.now();
    for (const decision of watch.waiting()) {
      const due = nextReport.get(decision) ?? timing.firstAfterMs;
      const waited = now - decision.since;
      if (waited < due) continue;
      nextReport.set(decision, 2 * waited);
      say(decidingSentence(decision, waited));
    }
  }, timing.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
