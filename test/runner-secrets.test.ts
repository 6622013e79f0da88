/**
 * Secrets never land in the results (issue 10, point 15): a value that came from the environment
 * through `${VAR}`, or a field named like a key, token, secret or password, is redacted in run.json,
 * run.log, episodes.jsonl, the tables and error messages, wherever it turns up (an agent's error
 * message, its stop details, a config error).
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'sk-live-4f9a8b7c6d5e';
const NOTE = 'internal-endpoint-7731';
const TOKEN = 'tok-inline-99887766';

/** An agent whose params carry secrets, and whose errors and stop details repeat them. */
const AGENT = `
import { defineAgent, z, action, stop } from 'arcbench';
export default defineAgent({
  name: 'leaky',
  params: z.strictObject({ api_key: z.string(), note: z.string(), fail: z.boolean() }),
  create: ({ params }) => ({
    act: (_frame, { step }) => {
      if (params.fail) throw new Error('the model server refused key ' + params.api_key + ' at ' + params.note);
      return step < 2 ? action(1) : stop('done', { auth_token: '${TOKEN}', seen: params.note });
    },
  }),
});
`;

describe('secrets', () => {
  it('are redacted in run.json, run.log, episodes.jsonl and the tables', async () => {
    writeFileSync(join(dir, 'leaky.ts'), AGENT);
    const file = join(dir, 'leaky.yaml');
    writeFileSync(
      file,
      'name: leaky\ngames: [crat]\nrecordings: false\nagents:\n' +
        '  - { use: ./leaky.ts, label: ok, params: { api_key: "${OPENAI_API_KEY}", note: "${NOTE_URL}", fail: false } }\n' +
        '  - { use: ./leaky.ts, label: failing, params: { api_key: "${OPENAI_API_KEY}", note: "${NOTE_URL}", fail: true } }\n',
    );
    const experiment = await loadExperiment(file, { env: { OPENAI_API_KEY: KEY, NOTE_URL: NOTE } });
    const out = join(dir, 'out');
    const result = await runExperiment(experiment, { out });
    expect(result.episodes.map((e) => e.outcome).sort()).toEqual(['agent_stop', 'error']);
    // Every file of the folder, those in its subfolders (transcripts, checkpoints) too, gzip opened.
    const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(out, name)).isFile());
    expect(files).toContain('run.json');
    for (const name of files) {
      const bytes = readFileSync(join(out, name));
      const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
      for (const secret of [KEY, NOTE, TOKEN]) expect(text, `${name} holds ${secret}`).not.toContain(secret);
    }
    expect(result.table).not.toContain(NOTE);
    const report = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(report.agents[0].params).toEqual({ api_key: '[redacted]', note: '[redacted]', fail: false });
    const failed = result.episodes.find((e) => e.outcome === 'error')!;
    expect(failed.error!.message).toBe('the model server refused key [redacted] at [redacted]');
  });

  it('are redacted from config errors', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: bad\nagents: [{ use: random }]\nepisodes: "${EPISODES}"\n');
    const error = await loadExperiment(file, { env: { EPISODES: 'secret-episodes-42' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/episodes/);
    expect((error as Error).message).not.toContain('secret-episodes-42');
  });
});
