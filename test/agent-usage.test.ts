// The usage API for every agent: prices make dollars, an unknown price stays unknown, bad reports are
// refused with a sentence, and each action's reasoning carries its step's usage within the service's
// 16 KiB. A user's plugin that reports usage keeps it when it stops or fails.
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addCall, callRecord, costOfCall, emptyUsage, type ModelCallRecord, reasoningWithUsage, sumUsage } from '../src/agent/usage.ts';
import { MAX_JSON_FIELD_BYTES } from '../src/protocol/limits.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { readRecordingText } from '../src/recording/recordingReader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { firstOf } from './support/lists.ts';

const call = (fields: Partial<ModelCallRecord> = {}): ModelCallRecord =>
  callRecord({ model: 'm', input_tokens: 1000, output_tokens: 50, cost_usd: 0.002, ...fields }, 0);

describe('cost of a call', () => {
  it('bills cached input at its price, the rest of the input and all output at theirs', () => {
    expect(
      costOfCall({ input_tokens: 1_000_000, cached_input_tokens: 400_000, output_tokens: 100_000 }, { input: 2, cached_input: 0.5, output: 8 }),
    ).toBeCloseTo(1.2 + 0.2 + 0.8, 12);
    // Without a cached price, cached tokens cost the input price: never under-counted.
    expect(costOfCall({ input_tokens: 1_000_000, cached_input_tokens: 400_000, output_tokens: 0 }, { input: 2, output: 8 })).toBeCloseTo(2, 12);
    expect(costOfCall({ input_tokens: 10, output_tokens: 10 }, undefined)).toBeNull();
  });

  it('keeps one unknown cost unknown in every sum, and a cached call free', () => {
    const totals = emptyUsage();
    addCall(totals, call());
    addCall(totals, call({ cached: true, cost_usd: 5 } as never));
    expect(totals).toMatchObject({ calls: 2, cached_calls: 1, input_tokens: 2000 });
    expect(totals.cost_usd).toBeCloseTo(0.002, 12);
    addCall(totals, callRecord({ model: 'm', input_tokens: 1, output_tokens: 1 }, 3));
    expect(totals.cost_usd).toBeNull();
    expect(sumUsage([emptyUsage(), totals]).cost_usd).toBeNull();
  });

  it('refuses a bad report with a sentence that names the field', () => {
    expect(() => callRecord({ model: '', input_tokens: 1, output_tokens: 1 }, 0)).toThrow(/model must be the model name/);
    expect(() => callRecord({ model: 'm', input_tokens: -1, output_tokens: 1 }, 0)).toThrow(/input_tokens must be a whole number ≥ 0, got -1/);
    expect(() => callRecord({ model: 'm', input_tokens: 1, output_tokens: 1.5 }, 0)).toThrow(/output_tokens must be a whole number/);
    expect(() => callRecord({ model: 'm', input_tokens: 1, output_tokens: 1, cost_usd: Number.NaN }, 0)).toThrow(/cost_usd must be a number ≥ 0/);
  });
});

describe("an action's reasoning", () => {
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

  it('carries the model, tokens, cost and the rationale', () => {
    expect(reasoningWithUsage('push the crate', [call(), call({ model: 'n', cost_usd: 0.001 })])).toEqual({
      model: 'm,n',
      input_tokens: 2000,
      cached_input_tokens: 0,
      reasoning_tokens: 0,
      output_tokens: 100,
      cost_usd: 0.003,
      calls: 2,
      rationale: 'push the crate',
    });
    expect(reasoningWithUsage({ plan: 'x' }, [])).toEqual({ plan: 'x' });
  });

  it('fits 16,384 bytes of compact UTF-8 JSON whatever the rationale, cutting only the rationale', () => {
    const anyRationale = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20_000 }),
      fc.string({ unit: 'grapheme', minLength: 4_500, maxLength: 6_000 }),
      fc.jsonValue({ maxDepth: 3 }),
      fc.constant('"\\'.repeat(6000)),
    );
    fc.assert(
      fc.property(anyRationale, (rationale) => {
        const sent = reasoningWithUsage(rationale, [call()]) as Record<string, unknown>;
        // Plain comparisons: expect() on strings of many kilobytes is most of this test's time.
        if (bytes(sent) > MAX_JSON_FIELD_BYTES) return false;
        if (sent.model !== 'm' || sent.input_tokens !== 1000 || sent.output_tokens !== 50 || sent.calls !== 1) return false;
        if (bytes({ ...sent, rationale }) <= MAX_JSON_FIELD_BYTES) return JSON.stringify(sent.rationale) === JSON.stringify(rationale);
        return typeof sent.rationale === 'string' && sent.rationale.endsWith('…');
      }),
      { numRuns: 40 },
    );
  });
});

const PLUGIN = `
import { defineAgent, z, action, stop } from 'arcbench';

export default defineAgent({
  name: 'thinker',
  params: z.strictObject({ end: z.enum(['stop', 'throw']) }),
  create: ({ params, reportUsage }) => ({
    act(frame, { step }) {
      reportUsage({ model: 'tiny', input_tokens: 100, output_tokens: 10, cost_usd: 0.25 });
      if (step < 2) return action(1, 'x'.repeat(40_000));
      if (params.end === 'throw') throw new Error('the model said something odd');
      return stop('done thinking');
    },
  }),
});
`;

describe('usage of any agent, in a run', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['stop', 'agent_stop'],
    ['throw', 'error'],
  ])('is kept when the agent ends the episode by %s, and a long reasoning still reaches the service', async (end, outcome) => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-usage-'));
    writeFileSync(join(dir, 'thinker.ts'), PLUGIN);
    writeFileSync(join(dir, 'exp.yaml'), `name: usage\ngames: [crat]\nagents:\n  - use: ./thinker.ts\n    params: { end: ${end} }\n`);
    const { report } = await runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'out') });
    const episode = firstOf(parseEpisodeLog(readFileSync(join(dir, 'out', 'episodes.jsonl'), 'utf8')), 'episode');
    expect(episode.outcome).toBe(outcome);
    expect(episode.actions).toBe(2);
    expect(episode.usage).toMatchObject({ calls: 3, input_tokens: 300, output_tokens: 30 });
    expect(episode.usage.cost_usd).toBeCloseTo(0.75, 12);
    expect(episode.model_calls!.map((c) => c.step)).toEqual([0, 1, 2]);
    expect(report.totals.usage.cost_usd).toBeCloseTo(0.75, 12);
    const recording = (await readRecordingText(join(dir, 'out', episode.recording!)))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const reasoning = recording[1].data.action_input.reasoning;
    expect(reasoning).toMatchObject({ model: 'tiny', input_tokens: 100, cost_usd: 0.25, calls: 1 });
    expect(Buffer.byteLength(JSON.stringify(reasoning), 'utf8')).toBeLessThanOrEqual(MAX_JSON_FIELD_BYTES);
  });
});

const TRANSCRIPT_PROBE = `
import { defineAgent, stop } from 'arcbench';

export default defineAgent({
  name: 'probe',
  create: ({ keepsTranscripts }) => ({ act: () => stop('probed', { keepsTranscripts }) }),
});
`;

describe("an agent's context", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [true, true],
    [false, false],
  ])('with transcripts: %s, says keepsTranscripts: %s, so an agent whose transcripts nobody keeps need not make them', async (transcripts, told) => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-context-'));
    writeFileSync(join(dir, 'probe.ts'), TRANSCRIPT_PROBE);
    writeFileSync(join(dir, 'exp.yaml'), `name: probe\ngames: [crat]\ntranscripts: ${transcripts}\nagents:\n  - use: ./probe.ts\n`);
    await runExperiment(await loadExperiment(join(dir, 'exp.yaml')), { out: join(dir, 'out') });
    const episode = firstOf(parseEpisodeLog(readFileSync(join(dir, 'out', 'episodes.jsonl'), 'utf8')), 'episode');
    expect(episode.stop_details).toEqual({ keepsTranscripts: told });
  });
});
