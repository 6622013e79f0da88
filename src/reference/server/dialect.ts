/**
 * How the server words its answers. `arcbench` is the full API of docs/protocol.md §2–§5. `toolkit` speaks it as
 * the official toolkit's own reference server does (docs/protocol.md §7a), so a client can be tested against that
 * sparser server without it, as `--backends` emulates the hosted balancer: games carry no
 * `baseline_actions` and come unsorted, run entries leave out `id`, `number_of_levels` and
 * `number_of_environments`, and every frame says `full_reset: false`. What the service does is the same
 * in both; only the answers lose detail.
 */
import type { FrameResponse, GameDescriptor, Scorecard } from '../../protocol/index.ts';

export const DIALECTS = ['arcbench', 'toolkit'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Turns the service's answers into the dialect's. Each function may change the (fresh) value it gets. */
export interface AnswerShaper {
  games(list: GameDescriptor[]): unknown;
  game(descriptor: GameDescriptor): unknown;
  scorecard(card: Scorecard): unknown;
  frame(response: FrameResponse): FrameResponse;
}

const asIs: AnswerShaper = {
  games: (list) => list,
  game: (descriptor) => descriptor,
  scorecard: (card) => card,
  frame: (response) => response,
};

const RUN_FIELDS_THE_TOOLKIT_LEAVES_OUT = ['id', 'number_of_levels', 'number_of_environments'] as const;

const toolkit: AnswerShaper = {
  // Reversed: in no order a client could rely on (the toolkit lists games as its folder holds them).
  games: (list) => list.map(withoutBaselines).reverse(),
  game: withoutBaselines,
  scorecard(card) {
    for (const environment of card.environments) {
      for (const run of environment.runs) for (const field of RUN_FIELDS_THE_TOOLKIT_LEAVES_OUT) delete (run as Record<string, unknown>)[field];
    }
    return card;
  },
  frame(response) {
    response.full_reset = false;
    return response;
  },
};

function withoutBaselines(descriptor: GameDescriptor): unknown {
  const { baseline_actions: _dropped, ...rest } = descriptor;
  return rest;
}

export function answerShaper(dialect: Dialect = 'arcbench'): AnswerShaper {
  if (dialect === 'arcbench') return asIs;
  if (dialect === 'toolkit') return toolkit;
  throw new RangeError(`dialect must be one of ${DIALECTS.join(', ')}, got ${String(dialect)}`);
}
