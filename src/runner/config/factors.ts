/**
 * Factorial arms: an agent entry may declare `factors`, params it varies, each with its levels; the
 * entry then stands for one arm per combination of levels (the full factorial), each an agent entry
 * of its own with those params. The harness is a factor like the model: a team that changes the state
 * mode or the batch size and the model at once learns nothing about either unless both are varied on
 * purpose (docs/experiments.md, "Factorial arms").
 *
 * This file holds the YAML shape of a factor (its zod schema) and the expansion; the loader names
 * each arm (`llm[model=a,effort=low]`) once the agent's own name is known.
 */
import { z } from 'zod';
import { holdsSecretValue, looksSecret } from '../../redaction.ts';

/** A level as a label shows it: a string, a number or true/false. */
const scalarSchema = z.union(
  [
    // A level names the arm, and the arm's name names files and scorecard tags, none of which is redacted.
    z
      .string()
      .min(1)
      .refine((text) => !holdsSecretValue(text), {
        error: 'this looks like a key, and a level names its arm in files and scorecard tags; vary keys with separate entries, not a factor',
      }),
    z.number(),
    z.boolean(),
  ],
  { error: 'expected a level: a string, a number or true/false' },
);
export type LevelValue = z.output<typeof scalarSchema>;

/** A level with params of its own: `{ value: gpt-5, with: { pricing: {...} } }` (a model's prices go with the model). */
const levelSchema = z.union([
  scalarSchema,
  z.strictObject({
    value: scalarSchema,
    with: z.record(z.string(), z.unknown()).describe('Other params this level sets (e.g. the pricing of a model level).'),
  }),
]);

const levelsSchema = z
  .array(levelSchema, { error: 'expected a list of levels, e.g. [low, high]' })
  .min(2, { error: 'a factor needs at least two levels to have an effect; a single value belongs in params' })
  .max(32, { error: 'at most 32 levels per factor' });

/** A param path: a param name, or `a.b` for a param inside a mapping param. */
const PARAM_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

const factorSchema = z.union([
  levelsSchema,
  z.strictObject({
    param: z.string().regex(PARAM_PATH, { error: 'expected a param name, or a.b for a param inside a mapping param' }).describe('The param this factor sets.'),
    levels: levelsSchema,
  }),
]);

/** An entry's `factors`: factor name → its levels (the name is the param) or `{ param, levels }` (a short name for a long param). */
export const factorsSchema = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'a factor name is letters, digits and "_" (it is part of the arm names)' }), factorSchema)
  .refine((factors) => Object.keys(factors).length > 0, { error: 'declare at least one factor, or leave `factors` out' })
  .superRefine((factors, context) => {
    const setBy = new Map<string, string>();
    for (const { name, path } of factorList(factors)) {
      const param = path.join('.');
      if (looksSecret(path.at(-1)!)) {
        const message = `params.${param} is a key, and a level names its arm in files and scorecard tags; vary keys with separate entries, not a factor`;
        context.addIssue({ code: 'custom', path: [name], message });
      }
      const earlier = setBy.get(param);
      if (earlier !== undefined) {
        context.addIssue({ code: 'custom', path: [name], message: `sets params.${param}, as factor ${earlier} does; one param is one factor` });
      }
      setBy.set(param, name);
    }
  })
  .describe(
    'Params to vary: the entry becomes one arm per combination of levels (e.g. { model: [a, b], effort: { param: reasoning_effort, levels: [low, high] } }).',
  );

export type FactorsDeclaration = z.output<typeof factorsSchema>;

/** The most arms one entry may expand to: a typo of a list (a 100-level factor) should not plan a week of runs. */
export const MAX_ARMS_PER_ENTRY = 256;

/** One arm: its levels and the params they set (to merge over the entry's params). */
export interface ExpandedArm {
  readonly levels: Record<string, LevelValue>;
  readonly params: Record<string, unknown>;
}

interface Factor {
  readonly name: string;
  readonly path: readonly string[];
  readonly levels: readonly z.output<typeof levelSchema>[];
}

function factorList(declared: FactorsDeclaration): Factor[] {
  return Object.entries(declared).map(([name, factor]) =>
    Array.isArray(factor) ? { name, path: [name], levels: factor } : { name, path: factor.param.split('.'), levels: factor.levels },
  );
}

/** Every combination of levels, the first factor varying slowest (arms read in the order of the file). */
export function expandFactors(base: Readonly<Record<string, unknown>>, declared: FactorsDeclaration): ExpandedArm[] {
  let arms: ExpandedArm[] = [{ levels: {}, params: structuredClone({ ...base }) }];
  for (const factor of factorList(declared)) {
    arms = arms.flatMap((arm) =>
      factor.levels.map((level) => {
        const value = typeof level === 'object' ? level.value : level;
        const params = structuredClone(arm.params);
        if (typeof level === 'object') Object.assign(params, structuredClone(level.with));
        setPath(params, factor.path, value);
        return { levels: { ...arm.levels, [factor.name]: value }, params };
      }),
    );
  }
  return arms;
}

/** How many arms `factors` expands to, before expanding them. */
export function armCount(declared: FactorsDeclaration): number {
  return factorList(declared).reduce((product, factor) => product * factor.levels.length, 1);
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const inner = target[head];
  const next = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {};
  target[head] = next;
  setPath(next, rest, value);
}

/** A level as it shows in an arm name: characters a file name or a tag should not hold become `_`. */
function levelText(value: LevelValue): string {
  return String(value).replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** The arm's label: `llm[model=gpt-5,effort=low]`. */
export function armLabel(base: string, levels: Readonly<Record<string, LevelValue>>): string {
  return `${base}[${Object.entries(levels)
    .map(([name, value]) => `${name}=${levelText(value)}`)
    .join(',')}]`;
}
