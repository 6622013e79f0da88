// Experiment files: strict validation whose errors name the path, ${VAR} expansion, the committed JSON
// Schema, and a plan whose seeds depend on nothing but the run seed and the episode's names.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadExperiment } from '../src/runner/config/loader.ts';
import { experimentJsonSchema } from '../src/runner/config/schema.ts';
import { planEpisodes, resolvePlan } from '../src/runner/plan.ts';
import { referenceTransport } from '../src/runner/targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-config-'));

function writeConfig(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function configError(file: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const error = await loadExperiment(file, { env }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as Error).message;
}

describe('experiment validation', () => {
  it('names the agent that does not exist, with the built-ins', async () => {
    const file = writeConfig('quickstart.yaml', 'name: q\nagents:\n  - use: random\n  - use: randm\n');
    expect(await configError(file)).toBe(
      'quickstart.yaml: agents[1].use: no agent named "randm"; built-ins: random, explorer, replay, llm (or give a path to a .ts or .js file)',
    );
  });

  it("checks params with the agent's own schema, at their path", async () => {
    const file = writeConfig('params.yaml', 'name: p\nagents:\n  - use: random\n  - use: explorer\n    params: { max_clicks: -1, depth: 3 }\n');
    const message = await configError(file);
    expect(message).toMatch(/^params\.yaml: agents\[1\]\.params\.max_clicks: /m);
    expect(message).toContain('params.yaml: agents[1].params.depth: is not a known key');
  });

  it('rejects unknown keys anywhere, also inside a target', async () => {
    const file = writeConfig('keys.yaml', 'name: k\nagents: [{ use: random }]\ntarget: { server: { backend: 2 } }\nbudget: { max_actions: 3 }\n');
    const message = await configError(file);
    expect(message).toContain('keys.yaml: target.server.backend: is not a known key');
    expect(message).toContain('keys.yaml: budget: is not a known key');
  });

  it('expands ${VAR} from the environment and says which variable is missing', async () => {
    const file = writeConfig('remote.yaml', 'name: r\nagents: [{ use: random }]\ntarget: { url: "${BASE:-https://example.org}", api_key: "${ARC_API_KEY}" }\n');
    expect(await configError(file)).toMatch(/^remote\.yaml: target\.api_key: environment variable ARC_API_KEY is not set/);
    const experiment = await loadExperiment(file, { env: { ARC_API_KEY: 'k-123' } });
    expect(experiment.config.target).toEqual({ url: 'https://example.org', api_key: 'k-123' });
  });

  it('refuses two entries with the same label', async () => {
    const file = writeConfig('labels.yaml', 'name: l\nagents: [{ use: random }, { use: random }]\n');
    expect(await configError(file)).toContain('agents[1].label: "random" is already used by agents[0]');
  });

  it('reports a game selection that matches nothing', async () => {
    const file = writeConfig('games.yaml', 'name: g\nagents: [{ use: random }]\ngames: [zzzz]\n');
    const experiment = await loadExperiment(file);
    await expect(resolvePlan(experiment, referenceTransport(0))).rejects.toThrow(/games\[0\]: "zzzz" matches no game id, slug prefix or tag/);
  });

  it('validates every example config', async () => {
    for (const name of ['quickstart', 'nightly', 'compare']) {
      await expect(loadExperiment(join(import.meta.dirname, '..', 'configs', `${name}.yaml`))).resolves.toBeDefined();
    }
    await expect(loadExperiment(join(import.meta.dirname, '..', 'configs', 'remote.yaml'), { env: { ARC_API_KEY: 'x' } })).resolves.toBeDefined();
    await expect(loadExperiment(join(import.meta.dirname, '..', 'configs', 'llm.yaml'), { env: { OPENAI_API_KEY: 'x' } })).resolves.toBeDefined();
    await expect(loadExperiment(join(import.meta.dirname, '..', 'configs', 'llm.yaml'), { env: {} })).rejects.toThrow(
      /llm\.yaml: agents\[0\]\.params\.api_key: environment variable OPENAI_API_KEY is not set; export it/,
    );
  });
});

describe('JSON Schema', () => {
  it('configs/arcbench.schema.json is the one generated from the zod schema (run `arcbench schema --out configs/arcbench.schema.json`)', () => {
    const committed = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'configs', 'arcbench.schema.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(experimentJsonSchema())));
  });
});

describe('plan', () => {
  it('gives every (agent, game, episode) a seed that does not depend on order or concurrency', async () => {
    const file = writeConfig('plan.yaml', 'name: p\nagents: [{ use: random }, { use: explorer }]\nepisodes: 3\nseed: 5\nconcurrency: 1\n');
    const one = await loadExperiment(file);
    const many = await loadExperiment(file, { overrides: { concurrency: 16 } });
    const transport = referenceTransport(0);
    const { games } = await resolvePlan(one, transport);
    const seeds = (e: ReturnType<typeof planEpisodes>) => e.map((x) => `${x.agent.label}/${x.game.game_id}/${x.index}=${x.seed}`).sort();
    expect(seeds(planEpisodes(many, [...games].reverse()))).toEqual(seeds(planEpisodes(one, games)));
    expect(planEpisodes(one, games)).toHaveLength(2 * games.length * 3);
    expect(new Set(planEpisodes(one, games).map((e) => e.seed)).size).toBe(2 * games.length * 3);
  });
});
