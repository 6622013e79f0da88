/**
 * Wire shapes of docs/protocol.md §2–§5 as zod schemas, and their types. Request schemas are strict on types and
 * ranges and tolerant of unknown extra keys (real clients send some). Response schemas keep unknown
 * keys, so a newer hosted service does not break the client. Frame grids never go through zod: see
 * frameResponse.ts.
 */
import { Buffer } from 'node:buffer';
import { z } from 'zod';
import { COORDINATE_MAX, MAX_JSON_FIELD_BYTES, MAX_LEVEL_COUNTER } from './limits.ts';
import { validationError } from './errors.ts';
import { stringifyJson } from './jsonText.ts';
import { formatIssues, ISSUE_OPTIONS } from './zodIssues.ts';

export const GAME_STATES = ['NOT_PLAYED', 'NOT_FINISHED', 'WIN', 'GAME_OVER'] as const;
export type GameState = (typeof GAME_STATES)[number];

/** A state as answers may spell it: the hosted service's OpenAPI says `NOT_STARTED` for `NOT_PLAYED` (docs/protocol.md §3). */
const answeredGameStateSchema = z.enum([...GAME_STATES, 'NOT_STARTED']).transform((state): GameState => (state === 'NOT_STARTED' ? 'NOT_PLAYED' : state));

/** Game input kinds (docs/protocol.md §2 descriptor `tags`). */
const GAME_TAGS = ['keyboard', 'click', 'keyboard_click'] as const;
export type GameTag = (typeof GAME_TAGS)[number];

/** Size of a JSON value once serialized, in UTF-8 bytes; undefined when it is not JSON. */
function serializedJsonBytes(value: unknown): number | undefined {
  let text: string | undefined;
  try {
    text = stringifyJson(value);
  } catch {
    return undefined;
  }
  return text === undefined ? undefined : Buffer.byteLength(text, 'utf8');
}

/** Any JSON value of at most 16 KiB serialized (`reasoning`, `opaque`). */
const sizedJsonValue = z.unknown().superRefine((value, ctx) => {
  const bytes = serializedJsonBytes(value);
  if (bytes === undefined) ctx.addIssue({ code: 'custom', message: 'must be a JSON value' });
  else if (bytes > MAX_JSON_FIELD_BYTES)
    ctx.addIssue({ code: 'custom', message: `is ${bytes} bytes serialized; the limit is ${MAX_JSON_FIELD_BYTES} (16 KiB)` });
});

const idString = (what: string) => z.string({ error: `expected ${what} as a string` }).min(1, { error: `${what} must not be empty` });

const coordinate = (axis: string) =>
  z
    .number({ error: `expected ${axis} as an integer 0..${COORDINATE_MAX}` })
    .int({ error: `${axis} must be an integer 0..${COORDINATE_MAX}` })
    .min(0, { error: `${axis} must be at least 0` })
    .max(COORDINATE_MAX, { error: `${axis} must be at most ${COORDINATE_MAX}` });

export const openScorecardRequestSchema = z.object({
  source_url: z.string({ error: 'expected a string (a link to the code or write-up)' }).nullish(),
  tags: z.array(z.string({ error: 'expected a string tag' }), { error: 'expected an array of strings' }).nullish(),
  opaque: sizedJsonValue.optional(),
  competition_mode: z.boolean({ error: 'expected true or false' }).nullish(),
});
export type OpenScorecardRequest = z.input<typeof openScorecardRequestSchema>;

export const closeScorecardRequestSchema = z.object({ card_id: idString('card_id') });
export type CloseScorecardRequest = z.input<typeof closeScorecardRequestSchema>;

export const resetRequestSchema = z.object({
  game_id: idString('game_id'),
  card_id: idString('card_id').nullish(),
  guid: idString('guid').nullish(),
  reasoning: sizedJsonValue.optional(),
});
export type ResetRequest = z.input<typeof resetRequestSchema>;

export const simpleActionRequestSchema = z.object({
  game_id: idString('game_id'),
  guid: idString('guid'),
  reasoning: sizedJsonValue.optional(),
});
export type SimpleActionRequest = z.input<typeof simpleActionRequestSchema>;

export const clickActionRequestSchema = simpleActionRequestSchema.extend({ x: coordinate('x'), y: coordinate('y') });
export type ClickActionRequest = z.input<typeof clickActionRequestSchema>;

export type CommandRequest = ResetRequest | SimpleActionRequest | ClickActionRequest;

/**
 * Validates a request body against its schema; a failure is a 400 VALIDATION_ERROR whose message
 * names every offending field.
 */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError(`the request body must be a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`);
  }
  const result = schema.safeParse(body, ISSUE_OPTIONS);
  if (result.success) return result.data;
  throw validationError(formatIssues(result.error.issues));
}

// ---------------------------------------------------------------- responses

const count = z.number().int().min(0);

/**
 * A game descriptor as a client reads it: `game_id` is needed, the rest may be missing (the official
 * toolkit's server sends no `baseline_actions`, and a null `title` for a game whose metadata has none,
 * docs/protocol.md §7a), and unknown fields are kept.
 */
export const gameDescriptorSchema = z.looseObject({
  game_id: z.string(),
  title: z.string().nullish(),
  default_fps: z.number().optional(),
  // The toolkit's server writes null for a game whose metadata has no tags (docs/protocol.md §7a): read as none.
  tags: z.preprocess((tags) => tags ?? undefined, z.array(z.string()).optional()),
  baseline_actions: z.array(count).optional(),
  date_downloaded: z.string().optional(),
  class_name: z.string().optional(),
});
export type GameDescriptor = {
  game_id: string;
  /** Every service we know sends one; the toolkit's may be null (its metadata had none). */
  title?: string | null;
  default_fps?: number;
  tags?: string[];
  /** One per level; missing from some services (docs/protocol.md §7a), so read it where it may be absent. */
  baseline_actions?: number[];
  date_downloaded?: string;
  class_name?: string;
};

export const openScorecardResponseSchema = z.looseObject({ card_id: z.string().min(1) });
export type OpenScorecardResponse = { card_id: string };

const runEntrySchema = z.looseObject({
  id: z.string(),
  guid: z.string(),
  score: z.number(),
  levels_completed: count,
  actions: count,
  resets: count,
  state: answeredGameStateSchema,
  completed: z.boolean(),
  level_scores: z.array(z.number()),
  level_actions: z.array(count),
  level_baseline_actions: z.array(count),
  number_of_levels: count,
  number_of_environments: count,
});
export type RunEntry = z.infer<typeof runEntrySchema>;

const environmentEntrySchema = z.looseObject({
  id: z.string(),
  runs: z.array(runEntrySchema),
  score: z.number(),
  actions: count,
  levels_completed: count,
  completed: z.boolean(),
  level_count: count,
  resets: count,
});
export type EnvironmentEntry = z.infer<typeof environmentEntrySchema>;

const tagScoreSchema = z.looseObject({
  id: z.string(),
  score: z.number(),
  levels_completed: count,
  actions: count,
  number_of_levels: count,
  number_of_environments: count,
});
export type TagScore = z.infer<typeof tagScoreSchema>;

export const scorecardSchema = z.looseObject({
  card_id: z.string(),
  score: z.number(),
  source_url: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  opaque: z.unknown().optional(),
  user_name: z.string().nullish(),
  user_id: z.string().nullish(),
  open_at: z.string().nullish(),
  last_update: z.string().nullish(),
  published_at: z.string().nullish(),
  competition_mode: z.boolean().nullish(),
  environments: z.array(environmentEntrySchema),
  tags_scores: z.array(tagScoreSchema).nullish(),
  total_environments_completed: count,
  total_environments: count,
  total_levels_completed: count,
  total_levels: count,
  total_actions: count,
});
export type Scorecard = z.infer<typeof scorecardSchema>;

// The schemas above are the full shapes of docs/protocol.md §5, as the reference service builds them and the runner
// scores locally. A client reads a service's scorecard tolerantly: anything it can do without may be
// missing (the official toolkit's server leaves `id`, `number_of_levels` and `number_of_environments`
// out of run entries, docs/protocol.md §7a), a field that is present must have its type, unknown fields are kept.
// Only an environment's `id` is needed, to know which game an entry is about.

// The toolkit's server answers a run that completed more levels than its game has baselines with -1 for
// each baseline (and scores it 0); its own clients accept that, and so does arcbench (cardBaselines.ts
// reads such a run as giving none).
export const runEntryAnswerSchema = runEntrySchema.partial().extend({ level_baseline_actions: z.array(z.int().min(-1)).optional() });
export type RunEntryAnswer = z.infer<typeof runEntryAnswerSchema>;

export const environmentAnswerSchema = environmentEntrySchema
  .partial()
  .required({ id: true })
  .extend({ runs: z.array(runEntryAnswerSchema).optional() });
export type EnvironmentAnswer = z.infer<typeof environmentAnswerSchema>;

export const scorecardAnswerSchema = scorecardSchema.partial().extend({
  environments: z.array(environmentAnswerSchema).optional(),
  tags_scores: z.array(tagScoreSchema.partial()).nullish(),
});
export type ScorecardAnswer = z.infer<typeof scorecardAnswerSchema>;

/**
 * The official toolkit's answer to `GET /api/scorecard/{card}/{game}` (docs/protocol.md §7a): the game's plays, one
 * item per play in each list, with no scores and no baselines. Read as tolerantly as a card.
 */
const toolkitGamePlaysSchema = z.looseObject({
  game_id: z.string().optional(),
  actions: z.array(count).optional(),
  /** Per play, `[levels completed, the play's actions then]` at each level completion. */
  actions_by_level: z.array(z.array(z.tuple([count, count]))).optional(),
  guids: z.array(z.string()).optional(),
  levels_completed: z.array(count).optional(),
  resets: z.array(count).optional(),
  states: z.array(z.string()).optional(),
  total_actions: count.optional(),
  total_plays: count.optional(),
});
export const toolkitGameCardSchema = z.looseObject({
  won: count.optional(),
  played: count.optional(),
  total_actions: count.optional(),
  levels_completed: count.optional(),
  cards: z.record(z.string(), toolkitGamePlaysSchema),
});
export type ToolkitGameCardAnswer = z.infer<typeof toolkitGameCardSchema>;

/** Everything of a frame response but the grids, which take the hand-written codec. */
export const frameResponseMetaSchema = z.looseObject({
  game_id: z.string(),
  guid: z.string(),
  state: answeredGameStateSchema,
  levels_completed: count.max(MAX_LEVEL_COUNTER),
  win_levels: count.max(MAX_LEVEL_COUNTER),
  action_input: z.looseObject({ id: z.number().int().min(0).max(7), data: z.record(z.string(), z.unknown()).optional(), reasoning: z.unknown().optional() }),
  available_actions: z.array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6), z.literal(7)])),
  full_reset: z.boolean().optional(),
});
