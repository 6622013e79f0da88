// How the llm agent copes with what a model and its server answer: unplayable replies are shown their
// error and tried once more; provider errors are retried as the server asks, then reported clearly;
// JSON answers for servers without tools; notes; compaction of older turns; the frame formats.
import { describe, expect, it } from 'vitest';
import { type FakeReply, type RecordedRequest, toolCall } from './support/fakeModelServer.ts';
import { firstOf, lastOf } from './support/lists.ts';
import { levelOneToolCalls, runLlmExperiment, SECRET_KEY, useFakeModelServer } from './support/llmRun.ts';

const fake = useFakeModelServer();

const crat = levelOneToolCalls('crat').gameId;
const lamp = levelOneToolCalls('lamp').gameId;

/** One episode of the llm agent on `game`, the model answering `replies` then `fallback`. */
async function play(options: {
  replies?: FakeReply[];
  fallback?: (request: RecordedRequest) => FakeReply;
  params?: Record<string, unknown>;
  maxActions?: number;
  game?: string;
}) {
  const folder = fake.newFolder();
  fake.server.script(...(options.replies ?? []));
  fake.server.setFallback(options.fallback ?? (() => ({ toolCalls: [toolCall('ACTION2')] })));
  const run = await runLlmExperiment(folder, {
    name: 'answers',
    games: [options.game ?? crat],
    params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY, pricing: { input: 1, output: 2 }, ...options.params },
    budgets: { max_actions: options.maxActions ?? 1 },
  });
  return { run, episode: firstOf(run.episodesFromFile, 'episode') };
}

const lastUserText = (request: RecordedRequest) => {
  const content = request.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content;
  return typeof content === 'string' ? content : content.map((part: { text?: string }) => part.text ?? '').join('\n');
};

describe('unplayable answers', () => {
  it('shows the model why its answer cannot be played, and plays its second answer', async () => {
    const { episode } = await play({ replies: [{ text: 'I would go left.' }, { toolCalls: [toolCall('ACTION4')] }] });
    expect(episode.outcome).toBe('budget');
    expect(episode.actions).toBe(1);
    const retry = fake.server.request(1).body.messages;
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: 'I would go left.' });
    expect(retry.at(-1).content).toMatch(/^That answer could not be played: your reply called no tool; call exactly one action tool\. Try again\.$/);
    // Both calls were made in the step and both are counted.
    expect(episode.usage.calls).toBe(2);
    expect(episode.model_calls!.map((c) => c.step)).toEqual([0, 0]);
  });

  it.each([
    [
      'an action the game does not offer',
      toolCall('ACTION6', { x: 1, y: 1 }),
      /"ACTION6" is not an action you can take now; choose one of ACTION1, ACTION2, ACTION3, ACTION4, ACTION7, RESET/,
    ],
    ['arguments that are not JSON', toolCall('ACTION1', '{"rationale": '), /the arguments of ACTION1 are not a JSON object/],
    ['two actions at once', { name: 'ACTION1' }, /call exactly one action tool per turn/],
  ])('answers %s with the error as the tool result', async (_what, call, error) => {
    const calls = call.name === 'ACTION1' && call.arguments === undefined ? [toolCall('ACTION1'), toolCall('ACTION2')] : [call];
    const { episode } = await play({ replies: [{ toolCalls: calls }, { toolCalls: [toolCall('ACTION1')] }] });
    expect(episode.outcome).toBe('budget');
    const tools = fake.server.request(1).body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(tools.map((m: { content: string }) => m.content).join('\n') + lastUserText(fake.server.request(1))).toMatch(error);
  });

  it('checks ACTION6 coordinates', async () => {
    const { episode } = await play({
      game: lamp,
      replies: [{ toolCalls: [toolCall('ACTION6', { x: 64, y: 3 })] }, { toolCalls: [toolCall('ACTION6', { x: 63, y: 3 })] }],
    });
    expect(episode.outcome).toBe('budget');
    expect(lastUserText(fake.server.request(1))).toMatch(/ACTION6 needs x and y as whole numbers from 0 to 63; got x=64, y=3/);
  });

  it('ends the episode with a clear agent error after a second unplayable answer, keeping the usage of both calls', async () => {
    const { episode } = await play({ replies: [{ text: 'hmm' }, { toolCalls: [toolCall('JUMP')] }] });
    expect(episode.outcome).toBe('error');
    expect(episode.error).toMatchObject({ kind: 'agent' });
    expect(episode.error!.message).toMatch(/^model "fake-model" twice gave no playable action; last problem: "JUMP" is not an action you can take now/);
    expect(episode.usage).toMatchObject({ calls: 2, input_tokens: 200, output_tokens: 20 });
    expect(episode.usage.cost_usd).toBeCloseTo((200 * 1 + 20 * 2) / 1e6, 12);
  });
});

describe('provider errors', () => {
  it('retries a 429 after the Retry-After the server sent', async () => {
    const started = Date.now();
    const { episode } = await play({ replies: [{ status: 429, retryAfter: 1 }, { toolCalls: [toolCall('ACTION1')] }] });
    expect(episode.outcome).toBe('budget');
    expect(fake.server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // The failed request cost nothing that was reported: one call, the one answered.
    expect(episode.usage.calls).toBe(1);
  });

  it('retries 5xx and a body that is not a chat completion', async () => {
    const { episode } = await play({
      replies: [{ status: 503, retryAfterMs: 5 }, { status: 500, retryAfterMs: 5 }, { rawBody: '{"choices": []}' }, { toolCalls: [toolCall('ACTION1')] }],
    });
    expect(episode.outcome).toBe('budget');
    expect(fake.server.requests).toHaveLength(4);
  });

  it('gives up after max_retries with the status and the attempts', async () => {
    const { episode } = await play({
      params: { max_retries: 1 },
      replies: [
        { status: 502, retryAfterMs: 5 },
        { status: 502, retryAfterMs: 5 },
      ],
    });
    expect(episode.outcome).toBe('error');
    expect(episode.error!.message).toMatch(new RegExp(`^the model server at ${fake.server.baseUrl.replace(/[.]/g, '\\.')} answered 502 \\(2 attempts\\)`));
  });

  it('does not wait out a Retry-After longer than an episode could', async () => {
    const { episode } = await play({ replies: [{ status: 429, retryAfter: 3600 }] });
    expect(episode.outcome).toBe('error');
    expect(episode.error!.message).toMatch(/answered 429 and asked to wait 3600 s, too long to wait within an episode/);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('says to check the key on a 401, without the key even when the server echoes it', async () => {
    const { episode } = await play({ replies: [{ status: 401, message: `Incorrect API key provided: ${SECRET_KEY}` }] });
    expect(episode.error!.message).toMatch(/refused the API key \(401\).*check OPENAI_API_KEY or params\.api_key/);
    expect(episode.error!.message).toContain('[redacted]');
    expect(episode.error!.message).not.toContain(SECRET_KEY);
  });

  it('times out a request that gets no answer, retries it, then says what to raise', async () => {
    const { episode } = await play({ params: { request_timeout_seconds: 0.2, max_retries: 1 }, replies: [{ hang: true }, { hang: true }] });
    expect(episode.outcome).toBe('error');
    expect(episode.error!.message).toMatch(/did not answer within 0\.2 s \(2 attempts\); raise params\.request_timeout_seconds/);
    expect(fake.server.requests).toHaveLength(2);
  });
});

describe('a long episode', () => {
  it("leaves no listener behind on the episode's signal, call after call", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const { episode } = await play({ maxActions: 15 });
      expect(episode.actions).toBe(15);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});

describe('answer formats and memory', () => {
  it('takes a JSON answer, in a code fence or not, from a server without tools', async () => {
    const { episode } = await play({
      params: { output: 'json' },
      maxActions: 2,
      replies: [{ text: 'Sure:\n```json\n{"action": "ACTION4", "rationale": "push"}\n```' }, { text: '{"action": "reset"}' }],
    });
    expect(episode.actions).toBe(2);
    expect(episode.resets).toBe(1);
    expect(fake.server.request(0).body.tools).toBeUndefined();
    expect(fake.server.request(0).body.seed).toBeUndefined();
    expect(lastUserText(fake.server.request(0))).toMatch(
      /Answer with one JSON object and nothing else: \{"action": one of "ACTION1", "ACTION2", "ACTION3", "ACTION4", "ACTION7", "RESET"/,
    );
    expect(fake.server.request(1).body.messages.at(-2)).toMatchObject({ role: 'assistant', content: expect.stringContaining('"ACTION4"') });
  });

  it('keeps notes the model writes and shows them every turn; a notes-only reply is asked again', async () => {
    await play({
      maxActions: 2,
      replies: [
        { toolCalls: [toolCall('write_notes', { notes: 'ACTION4 moves right' })] },
        { toolCalls: [toolCall('ACTION4')] },
        { toolCalls: [toolCall('write_notes', { notes: 'crates block' }), toolCall('ACTION1')] },
      ],
    });
    expect(lastUserText(fake.server.request(0))).toContain('Your notes: (empty)');
    expect(fake.server.request(1).body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'notes saved' });
    expect(lastUserText(fake.server.request(2))).toContain('Your notes: \nACTION4 moves right');
    expect(fake.server.requests).toHaveLength(3);
  });

  it('folds older turns into a summary written by the model past context_tokens, and labels that call', async () => {
    const compactions: RecordedRequest[] = [];
    const { episode } = await play({
      params: { context_tokens: 1_000, recent_turns: 1 },
      maxActions: 4,
      fallback: (request) => {
        if (request.body.tools === undefined) {
          compactions.push(request);
          return { text: 'ACTION2 does nothing here.', usage: { prompt_tokens: 300, completion_tokens: 30 } };
        }
        return { toolCalls: [toolCall('ACTION2', { rationale: 'probe' })], usage: { prompt_tokens: 5_000, completion_tokens: 5 } };
      },
    });
    expect(compactions.length).toBeGreaterThan(0);
    const folding = firstOf(compactions, 'compaction request').body.messages[1].content;
    expect(folding).toMatch(/Turns to fold into the summary \(frames left out\):\nTurn 1:\nGame: Crate Yard/);
    expect(folding).toContain('You chose: ACTION2: probe');
    const kinds = episode.model_calls!.map((c) => c.kind);
    expect(kinds.filter((k) => k === 'compaction')).toHaveLength(compactions.length);
    expect(kinds.filter((k) => k === 'action')).toHaveLength(4);
    const after = lastOf(fake.server.requests, 'model request').body.messages;
    expect(after[0].content).toContain('Summary of the earlier turns (written by you):\nACTION2 does nothing here.');
    // system, the one recent turn (user, assistant, tool), the current turn
    expect(after).toHaveLength(5);
    expect(episode.usage.calls).toBe(4 + compactions.length);
  });

  it("sends the episode's seed and the sampling params as asked", async () => {
    const { episode } = await play({ params: { send_seed: true, temperature: 0.3, max_output_tokens: 500, reasoning_effort: 'low' } });
    expect(fake.server.request(0).body).toMatchObject({
      seed: episode.seed,
      temperature: 0.3,
      max_completion_tokens: 500,
      reasoning_effort: 'low',
      model: 'fake-model',
    });
  });

  it('sends the frame as a PNG image for vision models, and as a diff after the first', async () => {
    await play({ params: { frame_format: 'image' } });
    const parts = fake.server.request(0).body.messages.at(-1).content;
    expect(parts.find((p: { type: string }) => p.type === 'image_url').image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    fake.server.requests.length = 0;

    await play({ params: { frame_format: 'diff' }, maxActions: 2, replies: [{ toolCalls: [toolCall('ACTION4')] }, { toolCalls: [toolCall('ACTION4')] }] });
    expect(lastUserText(fake.server.request(0))).toMatch(/Frame:\n64x64 grid/);
    expect(lastUserText(fake.server.request(1))).toMatch(/Frame, as the change from the previous frame:\n\d+ cells changed/);
  });

  it('sends RESET itself once the game is over, without a model call, and tells the model', async () => {
    // Lamp Grid: a click on the top HUD row changes nothing but spends one of the level's 20 steps.
    const { episode } = await play({ game: lamp, maxActions: 22, fallback: () => ({ toolCalls: [toolCall('ACTION6', { x: 0, y: 0 })] }) });
    expect(episode.actions).toBe(22);
    expect(episode.resets).toBe(1);
    expect(fake.server.requests).toHaveLength(21);
    expect(lastUserText(fake.server.request(20))).toMatch(/Last action: RESET \(sent for you: the game was over\)\. The level restarted\./);
  });
});

describe('cost without prices', () => {
  it('is unknown, never 0, in episodes.jsonl, run.json and the table', async () => {
    const { run, episode } = await play({ params: { pricing: undefined } });
    expect(episode.usage.cost_usd).toBeNull();
    expect(firstOf(episode.model_calls ?? [], 'model call').cost_usd).toBeNull();
    expect(run.runJson.totals.usage.cost_usd).toBeNull();
    expect(run.runJson.agents[0].usage.cost_usd).toBeNull();
    // The total's cost $ cell (the $ per level beside it is unknown too: no dollars, no level).
    expect(run.tableMarkdown).toMatch(/\| \*\*total\*\* \|.*\| \*\*unknown\*\* \| \*\*–\*\* \|\n/);
  });

  it('cannot keep a dollar budget, and the episode says so', async () => {
    const folder = fake.newFolder();
    fake.server.setFallback(() => ({ toolCalls: [toolCall('ACTION2')] }));
    const run = await runLlmExperiment(folder, {
      name: 'unpriced',
      games: [crat],
      params: { model: 'fake-model', base_url: fake.server.baseUrl, api_key: SECRET_KEY },
      budgets: { max_actions: 5, max_cost_usd: 1 },
    });
    const episode = firstOf(run.episodesFromFile, 'episode');
    expect(episode.outcome).toBe('error');
    expect(episode.error).toMatchObject({ kind: 'agent_contract' });
    expect(episode.error!.message).toMatch(/without its cost, so the dollar budget .* cannot be kept; give the agent its prices \(llm: params\.pricing\)/);
    expect(episode.actions).toBe(1);
  });
});
