// Transcripts of an llm run against the fake model server: in report.html (real headless Chromium) the
// transcript panel of a step shows that step's prompt and reply, collapsed until opened, and marks a
// compaction; `arcbench export --format messages` writes each episode as one chat conversation; the
// transcript stores each message once.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer } from '../src/report/viewServer.ts';
import { writeReport } from '../src/report/writeReport.ts';
import { readTranscript, readTranscriptText } from '../src/runfolder/transcriptFile.ts';
import { runArcbench } from './support/arcbenchProcess.ts';
import { launchChromium, watchPage } from './support/chromium.ts';
import { type RecordedRequest, toolCall } from './support/fakeModelServer.ts';
import { firstOf } from './support/lists.ts';
import { runLlmExperiment, SECRET_KEY, TempFolder, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();
let folder: TempFolder;
let browser: Browser;
let run: Awaited<ReturnType<typeof runLlmExperiment>>;

beforeAll(async () => {
  folder = new TempFolder();
  let actionCalls = 0;
  fake.server.setFallback((request: RecordedRequest) => {
    const prompt_tokens = Math.ceil(JSON.stringify(request.body.messages).length / 4);
    // A request without tools asks for a summary of older turns: the compaction.
    if (request.body.tools === undefined) return { text: 'Summary: moved right twice, nothing changed.', usage: { prompt_tokens, completion_tokens: 12 } };
    actionCalls++;
    return { toolCalls: [toolCall('ACTION4', { rationale: `reason number ${actionCalls}` })], usage: { prompt_tokens, completion_tokens: 20 } };
  });
  run = await runLlmExperiment(folder, {
    name: 'transcribed',
    games: ['crat'],
    params: {
      model: 'fake-model',
      base_url: fake.server.baseUrl,
      api_key: SECRET_KEY,
      pricing: { input: 2, output: 8 },
      context_tokens: 1000,
      recent_turns: 2,
    },
    budgets: { max_actions: 8 },
  });
  await writeReport(run.out);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  folder?.remove();
});

async function goToStep(page: Page, step: number): Promise<void> {
  await page.evaluate(`(() => { const s = document.querySelector('[data-testid=scrubber]'); s.value = '${step}'; s.dispatchEvent(new Event('input')); })()`);
  await expect.poll(() => page.locator('[data-testid=step-counter]').innerText()).toMatch(new RegExp(`^${step} of`));
}

describe('transcripts in the replay viewer', () => {
  it("shows, collapsed, the calls that decided a step: that step's turn, the frame drawn, the reply and tool call, tokens and dollars", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const watch = watchPage(page);
    await page.goto(pathToFileURL(join(run.out, 'report.html')).href);
    await page.locator('[data-testid=step-counter]').waitFor();
    await goToStep(page, 3);
    const panel = page.locator('[data-testid=transcript]');
    expect(await panel.getAttribute('open')).toBeNull();
    expect(await page.locator('[data-testid=transcript-summary]').innerText()).toMatch(/^1 model call decided step 3 · [\d,]+ tokens · \$0\.\d{4}$/);
    await page.locator('[data-testid=transcript-summary]').click();
    const call = page.locator('[data-testid=transcript-call][data-kind=action]');
    await call.locator('summary').click();
    // The third action was decided on the answer to the second: 2 actions used, its reply the third reason.
    expect(await call.locator('[data-testid=transcript-prompt]').innerText()).toContain('Actions used: 2.');
    expect(await call.locator('[data-testid=transcript-prompt]').innerText()).toContain('[frame: drawn below]');
    expect(await call.locator('[data-testid=transcript-reply]').innerText()).toContain('tool call ACTION4({"rationale":"reason number 3"})');
    expect(await call.locator('canvas.transcript-grid').isVisible()).toBe(true);

    // Somewhere in the episode the context passed 1,000 tokens: that step's calls show the compaction, marked.
    let marked = false;
    for (let step = 1; step <= 8 && !marked; step++) {
      await goToStep(page, step);
      marked = (await page.locator('[data-testid=transcript-call][data-kind=compaction]').count()) > 0;
    }
    expect(marked).toBe(true);
    expect(await page.locator('[data-testid=transcript-call][data-kind=compaction] summary').innerText()).toMatch(/^compaction · call \d+ · fake-model/);
    expect(watch.errors).toEqual([]);
    await page.close();
  });
});

describe('the transcript file and its export', () => {
  it('keeps every call with its step, stores each message once, and holds no key', async () => {
    const episode = firstOf(run.episodesFromFile, 'episode');
    expect(episode.transcript).toMatch(/^transcripts\/crat-[0-9a-f]+\.llm\.0\.[0-9a-f-]+\.transcript\.jsonl\.gz$/);
    const calls = await readTranscript(join(run.out, episode.transcript!));
    expect(calls.map((c) => [c.step, c.kind, c.usage.input_tokens])).toEqual(episode.model_calls!.map((c) => [c.step, c.kind, c.input_tokens]));
    // Each message once: the file's text, responses and usage included, is less than every call's messages
    // written whole; and gzip (a member per call, so that a killed run keeps each call it heard of) halves it.
    const text = await readTranscriptText(join(run.out, episode.transcript!));
    const everyCallWhole = calls.reduce((sum, c) => sum + JSON.stringify(c.messages).length, 0);
    expect(text.length).toBeLessThan(everyCallWhole);
    expect(statSync(join(run.out, episode.transcript!)).size).toBeLessThan(text.length / 2);
    for (const file of readdirSync(join(run.out, 'transcripts')))
      expect(gunzipSync(readFileSync(join(run.out, 'transcripts', file))).includes(SECRET_KEY)).toBe(false);
  });

  it('redacts a value the config took from the environment wherever the model was sent it', async () => {
    const secret = 'hush-hush-7c1f9a2e';
    process.env.ARCBENCH_TRANSCRIPT_SECRET = secret;
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION4', { rationale: 'on' })], usage: { prompt_tokens: 500, completion_tokens: 10 } }));
    try {
      const redacted = await runLlmExperiment(fake.newFolder(), {
        name: 'redacted',
        games: ['crat'],
        params: {
          model: 'fake-model',
          base_url: fake.server.baseUrl,
          api_key: SECRET_KEY,
          system_prompt: 'Play well. Passphrase: $' + '{ARCBENCH_TRANSCRIPT_SECRET}',
        },
        budgets: { max_actions: 2 },
      });
      expect(JSON.stringify(fake.server.requests.at(-1)?.body)).toContain(secret);
      const episode = firstOf(redacted.episodesFromFile, 'episode');
      const calls = await readTranscript(join(redacted.out, episode.transcript!));
      const text = JSON.stringify(calls);
      expect(text).not.toContain(secret);
      expect(text).toContain('Passphrase: [redacted]');
    } finally {
      delete process.env.ARCBENCH_TRANSCRIPT_SECRET;
    }
  });

  it('arcbench export --format messages writes one chat conversation per episode', async () => {
    const out = join(folder.path, 'messages.jsonl');
    const exported = await runArcbench(['export', run.out, '--format', 'messages', '--out', out], folder.path);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    const conversation = firstOf(lines, 'conversation');
    expect(conversation).toMatchObject({ agent: 'llm', episode: 0, model: 'fake-model' });
    const roles = conversation.messages.map((m: { role: string }) => m.role);
    expect(roles[0]).toBe('system');
    expect(roles.at(-1)).toBe('assistant');
    expect(conversation.messages.at(-1).tool_calls[0].function.arguments).toContain('reason number 8');
  });

  it('arcbench view serves the transcripts the episodes name, and nothing else under transcripts/', async () => {
    const view = await startViewServer(run.out, 0);
    try {
      const [listed] = (await (await fetch(`${view.url}api/runs`)).json()) as Array<{ id: string }>;
      const base = `${view.url}runs/${encodeURIComponent(listed!.id)}/`;
      const episode = firstOf(run.episodesFromFile, 'episode');
      const served = await fetch(`${base}${episode.transcript}`);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('"piece":');
      expect((await fetch(`${base}transcripts/other.transcript.jsonl.gz`)).status).toBe(404);
    } finally {
      await view.close();
    }
  });
});
