/**
 * The experiment file (YAML) as a strict zod schema: the source of truth for validation, for the
 * types the runner uses, and for the JSON Schema editors complete against (`arcbench schema`).
 */
import { z } from 'zod';
import { describeFound, positiveInt } from '../../protocol/zodIssues.ts';
import { budgetsSchema } from '../../episode/budgets.ts';
import { HOSTED_RATE_LIMIT_PER_MINUTE } from '../../protocol/limits.ts';
import { DIALECTS } from '../../reference/server/dialect.ts';
import { modelGatewaySchema } from '../../agent/gateway/gatewaySettings.ts';
import { holdsSecretValue, looksSecret } from '../../redaction.ts';
import { factorsSchema } from './factors.ts';

/**
 * The free-text fields are echoed and stored everywhere (terminal, run.json, run.log, the report, the
 * folder's name, the service's card tags), and none is redacted: a key pasted into one is refused.
 */
const NOT_A_KEY = {
  error:
    'this looks like an API key, and it would be printed and stored in the results; keys belong in a target or agent `api_key` (e.g. api_key: ${OPENAI_API_KEY}), where they are redacted',
};
const freeText = () => z.string().refine((text) => !holdsSecretValue(text), NOT_A_KEY);

/** Labels are capped: they name files (recordings) and scorecard tags. */
export const MAX_LABEL_LENGTH = 64;

const agentEntrySchema = z
  .strictObject(
    {
      use: z
        .string({ error: 'expected a built-in agent name (random, explorer, replay, llm) or a path to a .ts, .js or .py agent or an executable' })
        .min(1)
        .describe(
          'A built-in agent (random, explorer, replay, llm), a path to a .ts/.js plugin, a Python agent (file.py or file.py:ClassName) or an executable speaking arcbench.agent/1, relative to this file.',
        ),
      label: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'a label is letters, digits, ".", "-" or "_" (it names files and scorecard tags)' })
        .max(MAX_LABEL_LENGTH, { error: `a label is at most ${MAX_LABEL_LENGTH} characters (it names files and scorecard tags)` })
        .refine((text) => !holdsSecretValue(text), NOT_A_KEY)
        .optional()
        .describe('Name of this entry in tables, file names and scorecard tags; defaults to the agent name. Unique per experiment.'),
      params: z.record(z.string(), z.unknown()).optional().describe("The agent's parameters, validated by the agent's own schema."),
      python: z
        .string()
        .min(1)
        .optional()
        .describe("For a .py agent: the Python interpreter (a virtualenv's bin/python, relative to this file); default: ARCBENCH_PYTHON, else python3."),
      model_gateway: modelGatewaySchema.optional(),
      factors: factorsSchema.optional(),
    },
    {
      error: (issue) =>
        typeof issue.input === 'string'
          ? `expected a mapping such as { use: ${issue.input} }, found ${describeFound(issue.input)}; write "- use: ${issue.input}"`
          : undefined,
    },
  )
  .describe('One agent to evaluate.');

const serverTargetSchema = z.strictObject({
  backends: positiveInt('backends').max(64).default(1).describe('Backends behind the emulated load balancer.'),
  rotate_affinity: z
    .union([z.boolean(), positiveInt('rotate_affinity')])
    .default(false)
    .describe('Re-issue the affinity cookie with a new value every n answers (true: every answer), as the hosted balancer may.'),
  rate_limit_per_minute: positiveInt('rate_limit_per_minute').optional().describe('Requests per minute per key the server enforces (429 beyond).'),
  inject_429_every: z.int().min(2).optional().describe('Answer every n-th request 429, to exercise retries.'),
  dialect: z
    .enum(DIALECTS)
    .default('arcbench')
    .describe(
      "`toolkit`: answer as the official toolkit's sparser server does (no baselines, sparse cards, per-game plays, closed cards gone, full_reset always false, any key).",
    ),
});

const targetSchema = z
  .union([
    z.literal('reference').describe('The reference service in this process: no network, no key.'),
    z.strictObject({ server: serverTargetSchema }).describe('Our HTTP server, started on 127.0.0.1 for this run.'),
    z
      .strictObject({
        url: z.url({ error: 'expected the service base URL, e.g. https://three.arcprize.org' }),
        api_key: z.string({ error: 'expected the API key, e.g. "${ARC_API_KEY}"' }).min(1, { error: 'the API key is empty; set it, e.g. "${ARC_API_KEY}"' }),
      })
      .describe('Any service URL; `${VAR}` (or `${VAR:-default}`) takes a value from the environment.'),
  ])
  .default('reference')
  .describe('Where the games are played.');

const rateLimitSchema = z
  .union([
    z.literal(false),
    z.strictObject({
      requests: positiveInt('requests'),
      interval_ms: positiveInt('interval_ms'),
    }),
  ])
  .describe(`Client-side rate limit for HTTP targets (hosted default: ${HOSTED_RATE_LIMIT_PER_MINUTE} per 60000 ms); false turns it off.`);

const scorecardOptionsSchema = z.strictObject({
  tags: z.array(freeText()).default([]).describe('Tags for every scorecard; `agent` and the agent label are added.'),
  source_url: z
    .url({ protocol: /^https?$/, error: 'expected a link, e.g. https://github.com/you/your-agent', abort: true })
    .refine((url) => !holdsSecretValue(url), NOT_A_KEY)
    .refine((url) => !hasCredentials(url), {
      error:
        'this link carries a user and password or a key-named query field (e.g. ?token=), which would be stored in the results and sent as a card field; link without them',
    })
    .optional()
    .describe('Link to the code or write-up (http or https).'),
  opaque: z.unknown().optional().describe('Any JSON (at most 16 KiB), echoed by the service.'),
  competition_mode: z
    .boolean()
    .default(false)
    .describe(
      'Open competition cards: one open card per API key (so one agent per run), one session per game (so one episode), ' +
        'the card unreadable until closed, every RESET a level reset, and unplayed games scored 0 at close.',
    ),
  page_root: z
    .url({ error: 'expected the root of the scorecard pages, e.g. https://three.arcprize.org' })
    .optional()
    .describe("Where each card's page lives, as <page_root>/scorecards/<card_id>; default: the target URL."),
});

/** A link carrying a user and password, or a query field named like a key (`?token=…`). */
function hasCredentials(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '' || [...parsed.searchParams.keys()].some(looksSecret);
}

const timeoutsSchema = z.strictObject({
  connect_ms: positiveInt('connect_ms').optional(),
  request_ms: positiveInt('request_ms').optional(),
  max_retries: z.int().min(0).optional(),
});

export const experimentSchema = z
  .strictObject({
    name: z
      .string({ error: 'expected a name for the experiment' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'a name is letters, digits, ".", "-" or "_" (it names the results folder)' })
      .refine((text) => !holdsSecretValue(text), NOT_A_KEY),
    description: freeText().optional(),
    target: targetSchema,
    games: z
      .union([z.literal('all'), z.array(z.string().min(1)).min(1, { error: 'list at least one game, or write `all`' })])
      .default('all')
      .describe('`all`, or a list of game ids, slug prefixes (e.g. `ls20`) and game tags (keyboard, click, keyboard_click).'),
    games_dir: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A folder of official ARC-AGI-3 games (Kaggle's environment_files/<game>/<version>/, or the toolkit's flat folders), relative to this file: the target offers them instead of arcbench's own games. Needs python3 with arcengine.",
      ),
    game_hosts: positiveInt('game_hosts').max(256).optional().describe("Python processes stepping games_dir's games; default one per core."),
    agents: z.array(agentEntrySchema).min(1, { error: 'list at least one agent' }),
    episodes: positiveInt('episodes').max(100_000).default(1).describe('Episodes per (agent, game) in each repeat.'),
    repeats: positiveInt('repeats')
      .max(1000)
      .default(1)
      .describe(
        'Full draws of the plan, each with its own episode seeds: repeat r of episode i is episode index r × episodes + i. Tables show the spread across repeats; compare states the smallest difference they can tell from noise.',
      ),
    seed: z.int().min(0).max(0xffffffff).default(0).describe('The run seed; episode seeds derive from it.'),
    budgets: budgetsSchema.default({ max_actions: 80 }),
    concurrency: positiveInt('concurrency').max(1024).default(4).describe('Episodes in flight at once.'),
    rate_limit: rateLimitSchema.optional(),
    scorecard: scorecardOptionsSchema.default({ tags: [], competition_mode: false }),
    output: z.string().default('results').describe('Folder that receives <timestamp>-<name>/ run folders (relative to the working directory).'),
    recordings: z
      .union([z.enum(['gzip', 'jsonl']), z.boolean()], { error: 'expected gzip, jsonl or false (true means gzip)' })
      .default('gzip')
      .transform((value): 'gzip' | 'jsonl' | false => (value === true ? 'gzip' : value))
      .describe(
        'One recording per session: gzip (the default: .recording.jsonl.gz, the same lines compressed), jsonl (plain) or false (none, for big sweeps); true means gzip.',
      ),
    transcripts: z
      .boolean({ error: 'expected true or false' })
      .default(true)
      .describe('Keep every model call an agent reports (what was sent, what came back) in transcripts/, beside its recording; false turns them off.'),
    timeouts: timeoutsSchema.optional().describe('Transport timeouts and retries for HTTP targets.'),
  })
  .describe('An arcbench experiment.');

export type ExperimentConfig = z.output<typeof experimentSchema>;
export type AgentEntry = z.output<typeof agentEntrySchema>;

/** The JSON Schema of the experiment file, for editors (`# yaml-language-server: $schema=…`). */
export function experimentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(experimentSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'arcbench experiment',
  };
}
