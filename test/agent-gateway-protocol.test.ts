/**
 * Transcripts over the agent protocol, for an agent in any language (issue 31): an `act` may carry the
 * transcripts of calls the agent made itself, which are kept and counted like a plugin's; and
 * `export --format messages` says why when a run has no transcript, rather than write nothing.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';

const ROOT = join(import.meta.dirname, '..');

/** An agent process in no particular language's SDK: it "calls a model" and sends the call's transcript with its action. */
const SCRIBE = `#!/usr/bin/env python3
import json, os, sys
answers = os.fdopen(int(os.environ["ARCBENCH_ANSWER_FD"]), "w")
def answer(value):
    answers.write(json.dumps(value) + "\\n")
    answers.flush()
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello":
        answer({"type": "hello", "protocol": "arcbench.agent/1", "name": "scribe"})
    elif request["type"] in ("start", "frame"):
        call = {
            "request": {"messages": [{"role": "user", "content": "which way?"}], "params": {"temperature": 0}},
            "response": {"content": "up", "id": "resp-1"},
            "usage": {"model": "tiny-1", "input_tokens": 11, "output_tokens": 2, "cost_usd": 0.0005},
        }
        answer({"type": "act", "action": 1, "transcripts": [call]})
    else:
        break
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-gateway-protocol-'));
  writeFileSync(join(dir, 'scribe'), SCRIBE);
  chmodSync(join(dir, 'scribe'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function play(name: string, use: string): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, [`name: ${name}`, 'games: [slid]', `agents: [{ use: ${use} }]`, 'budgets: { max_actions: 2 }', 'recordings: false', ''].join('\n'));
  const out = join(dir, `${name}-run`);
  await runExperiment(await loadExperiment(file), { out });
  return out;
}

const exportMessages = (out: string) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'arcbench.js'), 'export', out, '--format', 'messages'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });

describe('transcripts in protocol answers', () => {
  it("are kept with the episode and counted from their usage; export writes the agent's conversation", async () => {
    const out = await play('scribe', './scribe');
    const [episode] = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    expect(episode?.error).toBeUndefined();
    expect(episode?.usage).toMatchObject({ calls: 2, input_tokens: 22, output_tokens: 4, cost_usd: 0.001 });
    expect(episode?.transcript).toBeDefined();
    const exported = exportMessages(out);
    expect(exported.status, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout.trim().split('\n')[0]!)).toMatchObject({
      agent: 'scribe',
      model: 'tiny-1',
      messages: [
        { role: 'user', content: 'which way?' },
        { role: 'assistant', content: 'up' },
      ],
    });
  }, 60_000);
});

describe('export --format messages of a run without transcripts', () => {
  it('says why in a sentence on stderr, writes nothing, and exits 1', async () => {
    const out = await play('quiet', 'random');
    const exported = exportMessages(out);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toMatch(
      /^arcbench export: .*quiet-run has no model-call transcripts, so there is no conversation to export: none of its 1 episodes reported a model call\n$/,
    );
    expect(exported.status).toBe(1);
  }, 60_000);
});

describe('model_gateway in a config', () => {
  const load = (name: string, entry: string) => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, [`name: ${name}`, 'games: [slid]', 'agents:', `  - ${entry}`, ''].join('\n'));
    return loadExperiment(file);
  };

  it('on a TypeScript agent is refused, naming the field and what to do', async () => {
    await expect(load('gateway-on-plugin', '{ use: random, model_gateway: { pricing: { input: 1, output: 2 } } }')).rejects.toThrow(
      /agents\[0\]\.model_gateway: model_gateway is for agent processes \(a \.py agent or an executable\).*remove model_gateway from this entry/,
    );
  });

  it('with prices that are not prices says what it expected', async () => {
    await expect(load('bad-prices', '{ use: ./scribe, model_gateway: { pricing: { input: cheap, output: 2 } } }')).rejects.toThrow(
      /agents\[0\]\.model_gateway\.pricing\.input: expected dollars per million tokens, e\.g\. 2\.5/,
    );
  });
});
