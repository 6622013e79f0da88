// A key pasted into a free-text field of the experiment (name, description, an agent's label, a card
// tag, the source link) is refused before anything runs, without echoing it: those fields are printed
// and stored everywhere (terminal, run.json, run.log, report, folder name, the service's card tags).
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArcbench } from './support/arcbenchProcess.ts';
import { tempDir } from './support/tempDir.ts';

const OPENAI_KEY = 'sk-proj-Zq8uV3kT9pL2mN6xR4wY7a';
const ARC_KEY = '3f2a9c1d-4e5b-4a7f-8e9d-0c1b2a3f4e5d';
const GENERIC_KEY = 'Q7v2Lx9pT4kM8nR3wZ6yB1cD5f';

const config = (fields: { name?: string; description?: string; label?: string; tag?: string; sourceUrl?: string }) =>
  [
    `name: ${fields.name ?? 'free-text'}`,
    ...(fields.description === undefined ? [] : [`description: ${JSON.stringify(fields.description)}`]),
    'games: [slid]',
    `agents: [{ use: random${fields.label === undefined ? '' : `, label: ${fields.label}`} }]`,
    'budgets: { max_actions: 3 }',
    'recordings: false',
    `scorecard: { tags: [${JSON.stringify(fields.tag ?? 'nightly')}]${fields.sourceUrl === undefined ? '' : `, source_url: ${JSON.stringify(fields.sourceUrl)}`} }`,
    '',
  ].join('\n');

describe('free-text fields of an experiment', () => {
  it('refuses a key in the name, description, label, a tag or the source link, naming the field and never the key; nothing is written', async () => {
    const dir = tempDir('free-text');
    const cases = [
      ['name', { name: OPENAI_KEY }, OPENAI_KEY],
      ['description', { description: `nightly run, key ${GENERIC_KEY} for the model` }, GENERIC_KEY],
      ['agents[0].label', { label: ARC_KEY }, ARC_KEY],
      ['scorecard.tags[0]', { tag: ARC_KEY }, ARC_KEY],
      ['scorecard.source_url', { sourceUrl: `https://example.org/agent?ref=${OPENAI_KEY}` }, OPENAI_KEY],
    ] as const;
    for (const [field, fields, key] of cases) {
      writeFileSync(join(dir, 'exp.yaml'), config(fields));
      const result = await runArcbench(['run', 'exp.yaml', '--out', 'run'], dir);
      expect(result.code, field).toBe(2);
      expect(result.stderr).toContain(`exp.yaml: ${field}: this looks like an API key, and it would be printed and stored in the results`);
      expect(result.stdout + result.stderr).not.toContain(key);
      expect(existsSync(join(dir, 'run')), field).toBe(false);
    }
    expect(readdirSync(dir).sort()).toEqual(['exp.yaml']);
  }, 60_000);

  it('source_url must be an http(s) link without a password or a key-named query field', async () => {
    const dir = tempDir('source-url');
    for (const [url, sentence] of [
      ['my agent repo', 'scorecard.source_url: expected a link, e.g. https://github.com/you/your-agent'],
      ['ftp://example.org/agent', 'scorecard.source_url: expected a link, e.g. https://github.com/you/your-agent'],
      ['https://me:hunter22@example.org/agent', 'scorecard.source_url: this link carries a user and password or a key-named query field'],
      ['https://example.org/agent?token=abc', 'scorecard.source_url: this link carries a user and password or a key-named query field'],
    ] as const) {
      writeFileSync(join(dir, 'exp.yaml'), config({ sourceUrl: url }));
      const result = await runArcbench(['validate', 'exp.yaml'], dir);
      expect(result.code, url).toBe(2);
      expect(result.stderr).toContain(sentence);
    }
  });

  it('passes the names, tags and links people write: long hyphenated names, a commit hash, a GitHub link', async () => {
    const dir = tempDir('free-text-ok');
    writeFileSync(
      join(dir, 'exp.yaml'),
      config({
        name: 'arc-agi-3-explorer-baseline-2024',
        description: 'Explorer v2 against the 2024-06-01 baseline (see PR #42).',
        label: 'explorer-v2-prompt-b',
        tag: '3f2a9c1d4e5b6a7f8e9d0c1b2a3f4e5d6c7b8a90',
        sourceUrl: 'https://github.com/someone/arc-agent/tree/3f2a9c1d4e5b6a7f8e9d0c1b2a3f4e5d6c7b8a90',
      }),
    );
    const result = await runArcbench(['validate', 'exp.yaml'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
