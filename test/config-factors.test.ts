// Factorial arms: an entry's `factors` expand into one named agent per combination of levels, each
// with its params checked by the agent's own schema; mistakes in the declaration name their field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadExperiment } from '../src/runner/config/loader.ts';
import { planEpisodes, resolvePlan } from '../src/runner/plan.ts';
import { referenceTransport } from '../src/runner/targets.ts';
import { runArcbench } from './support/arcbenchProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-factors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function configError(file: string): Promise<string> {
  const error = await loadExperiment(file, { env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

const TWO_FACTORS = `name: arms
games: [lamp]
agents:
  - use: explorer
    params: { max_clicks: 8 }
    factors:
      use_undo: [false, true]
      clicks: { param: max_clicks, levels: [4, 16] }
`;

describe('factorial arms', () => {
  it('expands a two-factor entry into its four named arms, first factor slowest, levels set in each params', async () => {
    const experiment = await loadExperiment(writeConfig('arms.yaml', TWO_FACTORS), { env: {} });
    expect(experiment.agents.map((a) => a.label)).toEqual([
      'explorer[use_undo=false,clicks=4]',
      'explorer[use_undo=false,clicks=16]',
      'explorer[use_undo=true,clicks=4]',
      'explorer[use_undo=true,clicks=16]',
    ]);
    expect(experiment.agents.map((a) => [(a.params as { use_undo: boolean }).use_undo, (a.params as { max_clicks: number }).max_clicks])).toEqual([
      [false, 4],
      [false, 16],
      [true, 4],
      [true, 16],
    ]);
    expect(experiment.agents[3]!.arm).toEqual({ of: 'explorer', levels: { use_undo: true, clicks: 16 } });
    // The config a run keeps lists the arms as plain entries, without the declaration they came from.
    expect(experiment.config.agents.map((a) => [a.label, a.factors])).toEqual(experiment.agents.map((a) => [a.label, undefined]));
    const { games } = await resolvePlan(experiment, referenceTransport(0));
    expect(planEpisodes(experiment, games)).toHaveLength(4);
  });

  it('arcbench plan lists the arms of each design, and --json gives each episode its arm', async () => {
    writeConfig('plan.yaml', TWO_FACTORS);
    const plan = await runArcbench(['plan', 'plan.yaml'], dir);
    expect(plan.code).toBe(0);
    const lines = plan.stdout.split('\n');
    const at = lines.indexOf('Factorial arms of explorer: 4 = use_undo (false, true) × clicks (4, 16)');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '  explorer[use_undo=false,clicks=4]',
      '  explorer[use_undo=false,clicks=16]',
      '  explorer[use_undo=true,clicks=4]',
      '  explorer[use_undo=true,clicks=16]',
    ]);
    const json = await runArcbench(['plan', 'plan.yaml', '--json'], dir);
    const first = JSON.parse(json.stdout.split('\n')[0]!) as { agent: string; arm: unknown };
    expect(first).toMatchObject({ agent: 'explorer[use_undo=false,clicks=4]', arm: { use_undo: false, clicks: 4 } });
  }, 60_000);

  it('uses the entry label as the arms’ prefix, and lets a level carry params of its own', async () => {
    const file = writeConfig(
      'with.yaml',
      'name: w\nagents:\n  - use: random\n    label: rnd\n    factors:\n      click_bias:\n        - 0.1\n        - { value: 0.9, with: { click_bias: 0.5 } }\n',
    );
    const experiment = await loadExperiment(file, { env: {} });
    expect(experiment.agents.map((a) => [a.label, (a.params as { click_bias: number }).click_bias])).toEqual([
      ['rnd[click_bias=0.1]', 0.1],
      // The factor's own value wins over what `with` says of the same param.
      ['rnd[click_bias=0.9]', 0.9],
    ]);
  });

  it('--agents keeps arms by their names', async () => {
    const experiment = await loadExperiment(writeConfig('keep.yaml', TWO_FACTORS), { env: {}, overrides: { agents: ['explorer[use_undo=true,clicks=4]'] } });
    expect(experiment.agents.map((a) => a.label)).toEqual(['explorer[use_undo=true,clicks=4]']);
    expect(experiment.config.agents.map((a) => a.label)).toEqual(['explorer[use_undo=true,clicks=4]']);
  });

  it('names the field of every mistake in a declaration', async () => {
    const one = writeConfig('one.yaml', 'name: o\nagents:\n  - use: random\n    factors: { click_bias: [0.5] }\n');
    expect(await configError(one)).toContain('one.yaml: agents[0].factors.click_bias: a factor needs at least two levels to have an effect');
    const bad = writeConfig('bad.yaml', 'name: b\nagents:\n  - use: random\n    factors: { click_bias: [0.5, 7] }\n');
    expect(await configError(bad)).toContain('bad.yaml: agents[0].params.click_bias: must be at most 1, found 7 (arm random[click_bias=7])');
    const object = writeConfig('object.yaml', 'name: x\nagents:\n  - use: random\n    factors: { click_bias: [{ a: 1 }, 0.2] }\n');
    expect(await configError(object)).toMatch(/object\.yaml: agents\[0\]\.factors\.click_bias\[0\]/);
    const param = writeConfig('param.yaml', 'name: p\nagents:\n  - use: random\n    factors: { bias: { param: "click bias", levels: [0.1, 0.2] } }\n');
    expect(await configError(param)).toContain('param.yaml: agents[0].factors.bias.param: expected a param name');
    const twice = writeConfig(
      'twice.yaml',
      'name: t\nagents:\n  - use: random\n    factors:\n      click_bias: [0.1, 0.2]\n      bias: { param: click_bias, levels: [0.3, 0.4] }\n',
    );
    expect(await configError(twice)).toContain(
      'twice.yaml: agents[0].factors.bias: sets params.click_bias, as factor click_bias does; one param is one factor',
    );
    const two = writeConfig(
      'two.yaml',
      'name: t\nagents:\n  - use: random\n    factors: { click_bias: [0.1, 0.2] }\n  - use: random\n    factors: { click_bias: [0.3, 0.4] }\n',
    );
    expect(await configError(two)).toContain(
      'two.yaml: agents[1].label: agents[0] also declares factors under the name "random"; give each such entry its own label',
    );
    const keys = writeConfig('keys.yaml', 'name: k\nagents:\n  - use: llm\n    params: { model: m }\n    factors: { api_key: [a, b] }\n');
    expect(await configError(keys)).toContain('keys.yaml: agents[0].factors.api_key: params.api_key is a key, and a level names its arm');
    const pasted = writeConfig(
      'pasted.yaml',
      'name: p\nagents:\n  - use: random\n    factors: { note: [plain, sk-proj-abcdefghijklmnopqrstuvwxyz0123456789] }\n',
    );
    const message = await configError(pasted);
    expect(message).toContain('pasted.yaml: agents[0].factors.note[1]: this looks like a key');
    expect(message).not.toContain('sk-proj');
    const many = writeConfig(
      'many.yaml',
      `name: m\nagents:\n  - use: explorer\n    factors:\n      max_clicks: [${Array.from({ length: 20 }, (_, i) => i).join(', ')}]\n      ignore_rows: [[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13]]\n`,
    );
    expect(await configError(many)).toMatch(/many\.yaml: agents\[0\]\.factors\.ignore_rows\[0\]/);
    const huge = writeConfig(
      'huge.yaml',
      `name: h\nagents:\n  - use: explorer\n    factors:\n      max_clicks: [${Array.from({ length: 20 }, (_, i) => i).join(', ')}]\n      ignore_rows: { param: use_undo, levels: [${Array.from({ length: 20 }, (_, i) => i).join(', ')}] }\n`,
    );
    expect(await configError(huge)).toContain('huge.yaml: agents[0].factors: these levels make 400 arms, more than 256');
  });

  it('says when an arm name is too long to name files, with what to do', async () => {
    const file = writeConfig(
      'long.yaml',
      'name: l\nagents:\n  - use: explorer\n    label: a-rather-long-label-for-an-entry-of-this-file\n    factors:\n      use_undo: [false, true]\n      max_clicks: [1000, 2000]\n',
    );
    expect(await configError(file)).toContain(
      'long.yaml: agents[0].label: the arm name a-rather-long-label-for-an-entry-of-this-file[use_undo=false,max_clicks=1000] is 77 characters long, more than the 64 a label may have (it names files); give the entry a shorter label',
    );
  });
});
