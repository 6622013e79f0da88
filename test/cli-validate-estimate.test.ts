// What a new user meets first: every example config validates as written with no key exported (checking
// a file and pricing its plan need none, `run` does), and `validate` refuses a plan `run` would refuse
// for its estimated cost, with the same figures.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';
import { tempDir } from './support/tempDir.ts';

const ROOT = join(import.meta.dirname, '..');
const CONFIGS = readdirSync(join(ROOT, 'configs')).filter((name) => name.endsWith('.yaml'));

/** arcbench with no key in its environment. */
function arcbenchWithoutKeys(args: string[], cwd = ROOT) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/(KEY|BASE_URL)$/.test(name)));
  const result = spawnSync(process.execPath, [ARCBENCH_BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** An llm experiment whose key comes from a variable that is not set. */
function llmExperiment(dir: string, budgets: Record<string, unknown>): string {
  const file = join(dir, 'llm.yaml');
  const params = { model: 'm', api: 'chat', base_url: 'http://127.0.0.1:9/v1', api_key: '${MY_PROVIDER_KEY}', pricing: { input: 3, output: 15 } };
  writeFileSync(file, stringify({ name: 'llm', games: ['crat'], agents: [{ use: 'llm', params }], episodes: 2, budgets }));
  return file;
}

describe('validate and plan --estimate before any key is exported', () => {
  it.each(CONFIGS)('configs/%s is valid as written, its plan within its own dollar budget', (name) => {
    const result = arcbenchWithoutKeys(['validate', join('configs', name)]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${name}: valid`);
  });

  it('plan --estimate prices a plan whose ${…KEY} is unset; validate names it; run still asks for it', () => {
    const dir = tempDir('nokey');
    const file = llmExperiment(dir, { max_actions: 10 });
    const plan = arcbenchWithoutKeys(['plan', file, '--estimate'], dir);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('estimated cost of the plan: expected $');
    const validate = arcbenchWithoutKeys(['validate', file], dir);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('note: MY_PROVIDER_KEY is not set; `arcbench run` needs it');
    const run = arcbenchWithoutKeys(['run', file, '--out', join(dir, 'run')], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('agents[0].params.api_key: environment variable MY_PROVIDER_KEY is not set');
  });

  it('validate refuses a plan whose estimated minimum is over budgets.max_run_cost_usd, as run would', () => {
    const dir = tempDir('overbudget');
    const file = llmExperiment(dir, { max_actions: 40, max_run_cost_usd: 0.01 });
    const validate = arcbenchWithoutKeys(['validate', file], dir);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toMatch(/llm\.yaml: `arcbench run` would refuse this plan: the plan is estimated to cost at least \$\d+\.\d\d/);
    expect(validate.stderr).toContain('over budgets.max_run_cost_usd of $0.01');
    expect(validate.stdout).toBe('');
  });
});
