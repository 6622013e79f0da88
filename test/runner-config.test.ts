// Experiment files: strict validation whose errors name the path, ${VAR} expansion, the committed JSON
// Schema, and a plan whose seeds depend on nothing but the run seed and the episode's names.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { defineAgent } from '../src/agent/defineAgent.ts';
import { closestWord, editDistance } from '../src/protocol/closestWord.ts';
import { ConfigError, loadExperiment } from '../src/runner/config/loader.ts';
import { experimentJsonSchema } from '../src/runner/config/schema.ts';
import { planEpisodes, resolvePlan } from '../src/runner/plan.ts';
import { referenceTransport } from '../src/runner/targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
      'quickstart.yaml: agents[1].use: no agent named "randm"; built-ins: random, explorer, replay, llm (or give a path to a .ts, .js or .py file, or an executable)',
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

  it('names a misspelt key inside a target with the key meant, not the keys of another kind of target', async () => {
    const file = writeConfig('apikey.yaml', 'name: a\nagents: [{ use: random }]\ntarget:\n  url: http://127.0.0.1:9\n  apikey: x\n');
    const message = await configError(file);
    expect(message).toContain('apikey.yaml: target.apikey: is not a known key; did you mean `api_key`?');
    expect(message).not.toContain('target.server');
    expect(message).not.toContain('target.url: is not a known key');
  });

  it('says "did you mean" for an unknown key close to a known one, and only then', async () => {
    const file = writeConfig('typo.yaml', 'name: t\nagents: [{ use: random }]\nepisods: 2\nbudgets: { max_action: 3, colour: 1 }\n');
    const message = await configError(file);
    expect(message).toContain('typo.yaml: episods: is not a known key; did you mean `episodes`?');
    expect(message).toContain('typo.yaml: budgets.max_action: is not a known key; did you mean `max_actions`?');
    expect(message).toContain('typo.yaml: budgets.colour: is not a known key; remove it or check its spelling');
  });

  it('suggests, for any one-letter slip in a known key, that key (property)', () => {
    const known = ['name', 'agents', 'games', 'episodes', 'seed', 'concurrency', 'budgets', 'timeouts', 'recordings', 'output'];
    const slip = fc
      .tuple(fc.constantFrom(...known), fc.nat(), fc.constantFrom('drop', 'double'))
      .map(([word, at, how]) => {
        const i = at % word.length;
        return { word, typo: how === 'drop' ? word.slice(0, i) + word.slice(i + 1) : word.slice(0, i + 1) + word.slice(i) };
      })
      .filter(({ typo }) => !known.includes(typo) && typo.length >= 3);
    fc.assert(fc.property(slip, ({ word, typo }) => closestWord(typo, known) === word));
    // The slip the property found first: as close to `name` as to `games`, it starts like `games`.
    expect(closestWord('game', known)).toBe('games');
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => editDistance(a, b) === editDistance(b, a)));
  });

  it('never echoes a value that looks like a key, whatever field it was typed in', async () => {
    const key = 'sk-proj-Ab12Cd34';
    for (const [name, yaml] of [
      ['target', `target: "${key}"\n`],
      ['seed', `seed: "${key}"\n`],
      ['use', ''],
    ] as const) {
      const agents = name === 'use' ? `agents: [{ use: "${key}" }]` : 'agents: [{ use: random }]';
      const message = await configError(writeConfig(`secret-${name}.yaml`, `name: s\n${agents}\n${yaml}`));
      expect(message).not.toContain(key);
      expect(message).toContain('looks like a key (not shown)');
    }
    // A value that is no key is still shown, so the user sees what was read.
    expect(await configError(writeConfig('plain.yaml', 'name: p\nagents: [{ use: random }]\nseed: "soon"\n'))).toContain('found "soon"');
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

  it('says what was expected and what was found for a value of the wrong type, never "is required"', async () => {
    const file = writeConfig(
      'types.yaml',
      'name: t\nagents: [{ use: explorer, params: { ignore_rows: "abc", max_clicks: 99999 } }]\nconcurrency: "8"\nseed: 1.5\nrecordings: maybe\n',
    );
    const message = await configError(file);
    expect(message).toContain('types.yaml: concurrency: expected concurrency as a whole number, found "8"');
    expect(message).toContain('types.yaml: seed: expected a whole number, found 1.5');
    expect(message).toContain('types.yaml: recordings: expected "gzip" or "jsonl", or true or false, found "maybe"');
    expect(message).not.toContain('is required');
    const params = await configError(
      writeConfig('params-types.yaml', 'name: p\nagents: [{ use: explorer, params: { ignore_rows: "abc", max_clicks: 99999 } }]\n'),
    );
    expect(params).toContain('agents[0].params.ignore_rows: expected a list, found "abc"');
    expect(params).toContain('agents[0].params.max_clicks: must be at most 4096, found 99999');
    expect(params).not.toMatch(/Too big|Invalid input/);
    expect(await configError(writeConfig('bare.yaml', 'name: b\nagents: [random]\n'))).toBe(
      'bare.yaml: agents[0]: expected a mapping such as { use: random }, found "random"; write "- use: random"',
    );
  });

  it('shows a YAML syntax error once, with its line, column and code frame', async () => {
    const message = await configError(writeConfig('syntax.yaml', 'name: c\nagents:\n  - use: random\n   bad: [\n'));
    const [first, ...frame] = message.split('\n');
    expect(first).toBe('syntax.yaml: line 4, column 1: Sequence item without - indicator');
    expect(frame.slice(0, 3)).toEqual(['      - use: random', '       bad: [', '    ^']);
    expect(message).not.toMatch(/:$/m);
  });

  it('names every unset variable at once, and never suggests writing a key into the file', async () => {
    const file = writeConfig('vars.yaml', 'name: v\nagents: [{ use: random }]\ntarget: { url: "${SERVICE_URL}", api_key: "${ARC_API_KEY}" }\n');
    const lines = (await configError(file)).split('\n');
    expect(lines).toEqual([
      'vars.yaml: target.url: environment variable SERVICE_URL is not set; export it (export SERVICE_URL=…) or give a default: ${SERVICE_URL:-value}',
      'vars.yaml: target.api_key: environment variable ARC_API_KEY is not set; export it before the run (export ARC_API_KEY=…); a secret does not belong in the file',
    ]);
  });

  it('caps labels, which name files', async () => {
    const message = await configError(writeConfig('long.yaml', `name: l\nagents: [{ use: random, label: ${'a'.repeat(300)} }]\n`));
    expect(message).toContain('agents[0].label: a label is at most 64 characters');
    // An agent's name stands in for a missing label: it is capped the same way.
    writeFileSync(
      join(dir, 'long-name.ts'),
      `import { defineAgent, stop } from 'arcbench';\nexport default defineAgent({ name: '${'n'.repeat(300)}', create: () => ({ act: () => stop() }) });\n`,
    );
    const named = await configError(writeConfig('long-name.yaml', 'name: l\nagents: [{ use: ./long-name.ts }]\n'));
    expect(named).toContain("agents[0].label: the agent's name (300 characters) would be the label, which names files; give the entry a label of at most 64");
  });

  it('takes an agent defined without params as one that takes none', async () => {
    const agent = defineAgent({ name: 'plain', create: () => ({ act: () => ({ stop: true }) as const }) });
    expect(agent.params.safeParse({}).success).toBe(true);
    expect(agent.params.safeParse({ depth: 3 }).success).toBe(false);
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
    await expect(
      loadExperiment(join(import.meta.dirname, '..', 'configs', 'llm.yaml'), { env: { OPENAI_API_KEY: 'x', ANTHROPIC_API_KEY: 'y' } }),
    ).resolves.toBeDefined();
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
