/**
 * run.json's writer: indented as JSON.stringify(value, null, 2) down to a depth and on one line below
 * it. On any JSON value it reads back as the value; deep enough, it is JSON.stringify's own text; at
 * depth 0 it is the one-line text; and it leaves out and replaces what JSON.stringify does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExperiment, runExperiment } from '../src/index.ts';
import { indentedJson } from '../src/runfolder/indentedJson.ts';

/** JSON values with `__proto__` keys and deep nesting among them, as JSON.parse would make them. */
const jsonValues = fc.jsonValue({ maxDepth: 9 });

describe('indentedJson', () => {
  it('reads back as the value, at any depth', () => {
    fc.assert(
      fc.property(jsonValues, fc.nat({ max: 10 }), (value, depth) => {
        expect(JSON.stringify(JSON.parse(indentedJson(value, depth)))).toBe(JSON.stringify(value));
      }),
    );
  });

  it("is JSON.stringify's indented text when nothing is deep enough for one line, and its one-line text at depth 0", () => {
    fc.assert(
      fc.property(jsonValues, (value) => {
        expect(indentedJson(value, 100)).toBe(JSON.stringify(value, null, 2));
        expect(indentedJson(value, 0)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('puts what is `depth` levels down on one line, and indents what is above', () => {
    const value = { runs: [{ id: 'a', level_scores: [1, 2] }], name: 'x' };
    expect(indentedJson(value, 2)).toBe('{\n  "runs": [\n    {"id":"a","level_scores":[1,2]}\n  ],\n  "name": "x"\n}');
  });

  it('calls toJSON and leaves out or nulls what JSON.stringify does, above and below the depth', () => {
    const value = {
      at: new Date(0),
      gone: undefined,
      fn: () => 1,
      list: [undefined, Number.NaN, new Number(3), { deep: [undefined, new Date(1)] }],
      empty: {},
      none: [],
    };
    for (const depth of [0, 1, 2, 3, 100]) {
      expect(JSON.parse(indentedJson(value, depth))).toEqual(JSON.parse(JSON.stringify(value)));
    }
    expect(indentedJson(value, 100)).toBe(JSON.stringify(value, null, 2));
    expect(() => indentedJson(undefined, 3)).toThrow(/no JSON form/);
  });
});

describe('run.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arcbench-indented-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is indented above the scorecards' run entries, each of which is one line", async () => {
    const yaml = 'name: lines\ntarget: reference\ngames: [lamp]\nagents:\n  - use: random\nepisodes: 3\nbudgets: { max_actions: 10 }\nrecordings: false\n';
    const experiment = await parseExperiment(yaml, { file: join(dir, 'lines.yaml'), baseDir: dir });
    const { runDir, report } = await runExperiment(experiment, { out: join(dir, 'run') });
    const text = readFileSync(join(runDir, 'run.json'), 'utf8');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(report)));
    const runLines = text.split('\n').filter((line) => line.trimStart().startsWith('{"id":"lamp-'));
    // One line per run in cards[] and one in agents[] (the agent's latest card).
    expect(runLines).toHaveLength(2 * report.cards[0]!.scorecard!.environments![0]!.runs!.length);
    expect(text).toContain('\n  "name": "lines",\n');
  });
});
