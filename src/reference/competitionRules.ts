/**
 * Whose rules a competition card follows. The hosted service's (docs/protocol.md §5, SPEC §5) are the default;
 * the official toolkit's server plays competition cards otherwise (§7a), and `serve --dialect toolkit`
 * must play them as it does, since Kaggle's gateway is that server:
 *
 * - `hosted`: one open competition card per key (a second open is 409); a RESET of a session never starts
 *   a new run: after a win it is refused, otherwise it resets the level and is counted, even at a level's
 *   very start.
 * - `toolkit`: any number of cards; a RESET at a level's very start plays nothing and repeats the
 *   session's last answer (the engine has nothing to reset), counted as that answer's action was; after
 *   a win it starts a new run, as outside competition.
 * - `toolkit-competition-server`: the toolkit's server started in competition mode: as `toolkit`, and
 *   every card opened is a competition card, and only one card is ever opened in the server's life.
 */
import { ApiError } from '../protocol/index.ts';
import type { SessionState } from './session.ts';

export const COMPETITION_RULES = ['hosted', 'toolkit', 'toolkit-competition-server'] as const;
export type CompetitionRules = (typeof COMPETITION_RULES)[number];

/**
 * What a RESET naming a session does: start a new run (a full reset), reset the level, repeat the
 * session's last answer without playing, or nothing but a refusal (`refused`).
 */
export type SessionResetKind = 'new-run' | 'level-reset' | 'repeat-last-answer' | 'refused';

/** The RESET rules of docs/protocol.md §4.2, and on a competition card those of `rules`. */
export function sessionResetKind(rules: CompetitionRules, competition: boolean, state: SessionState, actionsOnLevel: number): SessionResetKind {
  if (competition && rules === 'hosted') return state === 'WIN' ? 'refused' : 'level-reset';
  if (state === 'WIN') return 'new-run';
  if (actionsOnLevel > 0) return 'level-reset';
  return competition && repeatsLastAnswers(rules) ? 'repeat-last-answer' : 'new-run';
}

/** Whether a competition card's RESET may repeat a session's last answer (so the session must keep it). */
export function repeatsLastAnswers(rules: CompetitionRules): boolean {
  return rules !== 'hosted';
}

/** Whether a card asked for with `requested` (the open's `competition_mode`) is a competition card. */
export function opensCompetitionCard(rules: CompetitionRules, requested: unknown): boolean {
  if (rules === 'toolkit-competition-server') return true;
  // The toolkit's server takes any value given, false included, as asking for one.
  return rules === 'hosted' ? requested === true : requested !== undefined && requested !== null;
}

/**
 * The refusal of an open, if any: `openCompetitionCard` is an open competition card of the caller's, if
 * it has one; `cardsOpened` counts every card this service has opened.
 */
export function openRefusal(rules: CompetitionRules, openCompetitionCard: string | undefined, cardsOpened: number): ApiError | undefined {
  if (rules === 'hosted' && openCompetitionCard !== undefined)
    return new ApiError(
      409,
      'SERVER_ERROR',
      `competition mode allows one open scorecard per key, and card ${openCompetitionCard} is still open; close it first`,
    );
  if (rules === 'toolkit-competition-server' && cardsOpened > 0)
    // The toolkit's own words: only the toolkit dialect plays by these rules.
    return new ApiError(409, 'SERVER_ERROR', 'cannot open multiple scorecards in competition mode');
  return undefined;
}

const repeatedAnswers = new WeakSet<object>();

/** Marks `answer` as a repetition of an earlier one, played by no one (see isRepeatedAnswer). */
export function repeatedAnswer<T extends object>(answer: T): T {
  repeatedAnswers.add(answer);
  return answer;
}

/** Whether `answer` repeats an earlier one: a dialect must not word it again as the answer to the RESET that got it. */
export function isRepeatedAnswer(answer: object): boolean {
  return repeatedAnswers.has(answer);
}
