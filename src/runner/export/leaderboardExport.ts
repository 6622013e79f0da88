/**
 * `arcbench export --format leaderboard`: a run as a submission to the ARC Prize community leaderboard,
 * which publishes per entry its scorecard link (a card on the hosted service, where the score can be
 * checked), the score (the best of how many episodes per game, with the mean episode score beside it),
 * and what it cost (in total and per game played). One entry per agent. A run
 * whose cards are not on the hosted service (a local or self-hosted run) is refused: nobody else can
 * check its cards.
 */
import { TOTAL } from '../../analysis/episodeSample.ts';
import { ArcbenchError } from '../../errors.ts';
import type { RunFolder } from '../../runfolder/readRunFolder.ts';
import { readManifest, runFileHash } from '../../runfolder/manifest.ts';
import { UNKNOWN_CARD } from '../../runfolder/harnessCard.ts';

/** The hosted service's site, where scorecard pages live. */
export const HOSTED_SCORECARD_ORIGIN = 'https://three.arcprize.org';
export const LEADERBOARD_FORMAT = 'arcbench.leaderboard-submission/1';

export class NotSubmittableError extends ArcbenchError {
  constructor(message: string) {
    super('RUN_NOT_SUBMITTABLE', message);
  }
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The card's score is each game's best episode (the service's rule): with several episodes a game, a
 * best draw. Said beside it, with the mean episode score to rank on.
 */
function bestOf(report: RunFolder['report'], label: string): { score_is_best_of: number; mean_episode_score: number | null } {
  const draws = report.plan.episodes * (report.plan.repeats ?? 1);
  const total = report.table?.find((row) => row.agent === label && row.game === TOTAL);
  return { score_is_best_of: draws, mean_episode_score: total?.mean_score ?? null };
}

export function leaderboardSubmission(folder: RunFolder): Record<string, unknown> {
  const { report } = folder;
  const elsewhere = report.attempts.filter((attempt) => attempt.target_kind !== 'url' || !sameOrigin(attempt.target, HOSTED_SCORECARD_ORIGIN));
  if (elsewhere.length > 0) {
    throw new NotSubmittableError(
      `${folder.dir}: the leaderboard takes runs against the hosted service (${HOSTED_SCORECARD_ORIGIN}) only, and this run played on ${[...new Set(elsewhere.map((a) => a.target))].join(', ')}; run against the hosted service to submit`,
    );
  }
  const offSite = report.agents.filter((agent) => !agent.scorecard_url?.startsWith(`${HOSTED_SCORECARD_ORIGIN}/scorecards/`));
  if (offSite.length > 0) {
    const where = offSite.map((agent) => `${agent.label}: ${agent.scorecard_url ?? 'no scorecard page'}`).join('; ');
    throw new NotSubmittableError(
      `${folder.dir}: the leaderboard takes scorecards on the hosted service (${HOSTED_SCORECARD_ORIGIN}/scorecards/…) only, and this run's are not (${where}); run against the hosted service to submit`,
    );
  }
  const manifest = readManifest(folder.dir);
  return {
    format: LEADERBOARD_FORMAT,
    run: report.name,
    harness: { name: 'arcbench', version: report.provenance.arcbench_version },
    // What produced the scores beyond the model: a reader of the leaderboard weighs a score with its harness.
    harness_card: report.harness_card ?? UNKNOWN_CARD,
    started_at: report.started_at,
    finished_at: report.finished_at,
    manifest_sha256: runFileHash(manifest),
    entries: report.agents.map((agent) => {
      const card = agent.scorecard as { score?: number; total_environments?: number } | null;
      const games = Object.keys(agent.usage_by_game).length || (card?.total_environments ?? 0);
      const cost = agent.usage.cost_usd;
      return {
        agent: agent.label,
        uses: agent.use,
        model: (agent.params as { model?: unknown } | null)?.model ?? null,
        scorecard_url: agent.scorecard_url,
        card_id: agent.card_id,
        score: card?.score ?? null,
        ...bestOf(report, agent.label),
        cost_usd: cost,
        cost_per_game_usd: cost === null || games === 0 ? null : cost / games,
        games,
        tokens: {
          input: agent.usage.input_tokens,
          cached_input: agent.usage.cached_input_tokens,
          output: agent.usage.output_tokens,
          reasoning: agent.usage.reasoning_tokens,
        },
        model_calls: agent.usage.calls,
        harness_facts: report.harness_card?.agents.find((a) => a.label === agent.label)?.facts ?? null,
      };
    }),
  };
}
