// The llm agent's snapshot() and restore(), for each api against our fake servers and the real
// in-process service: an agent restored (through JSON, as a checkpoint carries it) from a snapshot
// taken after any decision, batches and compactions included, decides what the uninterrupted one
// decides and sends the very next request it sends: the same conversation, the same previous
// response id, the same encrypted reasoning and signed thinking blocks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import llm from '../agents/llm.ts';
import { isStop } from '../src/agent/actions.ts';
import type { Agent, AgentAction, AgentContext, AgentDecision } from '../src/agent/contract.ts';
import { createRng } from '../src/agent/rng.ts';
import type { FrameResponse, GameAction } from '../src/protocol/index.ts';
import { referenceTransport } from '../src/runner/targets.ts';
import { startFakeAnthropicServer } from './support/fakeAnthropicServer.ts';
import { type FakeToolCall, type RecordedRequest, toolCall } from './support/fakeModelServer.ts';
import { startFakeResponsesServer } from './support/fakeResponsesServer.ts';
import { levelOneToolCalls, SECRET_KEY, useFake, useFakeModelServer } from './support/llmRun.ts';

const chat = useFakeModelServer();
const responses = useFake(startFakeResponsesServer);
const anthropic = useFake(startFakeAnthropicServer);
const crat = levelOneToolCalls('crat');

/**
 * What the server issued is left out of the request's measure: a native compaction the twin makes
 * itself gets ids, numbers and a signature of its own from the fake (cmp_item_99 against cmp_item_100,
 * "Summary 102" against "Summary 104"), and those must not change the answer.
 */
const withoutWhatTheServerIssued = (body: unknown) =>
  JSON.stringify(body)
    .replace(/"(signature|encrypted_content)":"[^"]*"/g, '')
    .replace(/\d+/g, '#');

/** The model's answer, a function of the request alone: the agent and its restored twin get the same. */
function plannedCalls(request: RecordedRequest, batch: number): FakeToolCall[] {
  const size = withoutWhatTheServerIssued(request.body).length;
  const calls = Array.from({ length: batch }, (_, i) =>
    toolCall(`ACTION${1 + ((size + i) % 4)}`, { rationale: `move ${i}`, prediction: 'the crate moves', expect_change: (size + i) % 5 !== 0 }),
  );
  return size % 3 === 0 ? [toolCall('write_notes', { notes: `notes at ${size}` }), ...calls] : calls;
}

interface Setup {
  readonly name: string;
  readonly params: () => Record<string, unknown>;
  readonly requests: () => RecordedRequest[];
  readonly answer: (batch: number) => void;
}

const SETUPS: readonly Setup[] = [
  {
    name: 'chat',
    params: () => ({ api: 'chat', base_url: chat.server.baseUrl }),
    requests: () => chat.server.requests,
    answer: (batch) => chat.server.setFallback((request) => ({ toolCalls: plannedCalls(request, batch) })),
  },
  ...(['provider', 'stateless'] as const).map(
    (state): Setup => ({
      name: `responses, state ${state}`,
      params: () => ({ api: 'responses', state, base_url: responses.server.baseUrl }),
      requests: () => responses.server.requests as RecordedRequest[],
      answer: (batch) => responses.server.setFallback((request) => ({ toolCalls: plannedCalls(request, batch), reasoning: 'think' })),
    }),
  ),
  {
    name: 'anthropic',
    params: () => ({ api: 'anthropic', base_url: anthropic.server.baseUrl, thinking_budget: 1_024 }),
    requests: () => anthropic.server.requests as RecordedRequest[],
    answer: (batch) => anthropic.server.setFallback((request) => ({ toolCalls: plannedCalls(request, batch), thinking: 'think' })),
  },
];

async function createAgent(params: Record<string, unknown>, game: Parameters<typeof llm.create>[0]['game'], seed: number): Promise<Agent> {
  const context: AgentContext<unknown> = {
    params: llm.params.parse({ model: 'fake-model', api_key: SECRET_KEY, ...params }),
    game,
    rng: createRng(seed),
    seed,
    episode: 0,
    label: 'llm',
    signal: new AbortController().signal,
    resolvePath: (path) => path,
    reportUsage: () => undefined,
    keepTranscript: () => undefined,
  };
  return llm.create(context as never);
}

/**
 * Plays to the cut, makes the twin from the snapshot's JSON, then lets both decide on the same frames
 * until one decision calls the model: the decisions must agree, and so must that first request.
 * Returns whether a request was compared.
 */
async function playWithTwin(setup: Setup, params: Record<string, unknown>, cut: number): Promise<boolean> {
  const transport = referenceTransport(1);
  const game = (await transport.listGames()).find((g) => g.game_id === crat.gameId)!;
  const card = await transport.openScorecard({});
  let frame: FrameResponse = await transport.reset(card, game.game_id);
  const agent = await createAgent(params, game, 1);
  let twin: Agent | undefined;
  const requests = setup.requests();
  try {
    for (let step = 0; step < cut + 12; step++) {
      const info = { step, actions: step, levelActions: 0 };
      const before = requests.length;
      const decision: AgentDecision = await agent.act(frame, info);
      if (twin !== undefined) {
        const sent = requests.slice(before).map((r) => r.body);
        const twinFrom = requests.length;
        expect(await twin.act(frame, info)).toEqual(decision);
        const twinSent = requests.slice(twinFrom).map((r) => r.body);
        expect(twinSent.length > 0).toBe(sent.length > 0);
        if (sent.length > 0) {
          expect(twinSent[0]).toEqual(sent[0]);
          return true;
        }
      }
      if (step === cut) {
        twin = await createAgent(params, game, 1);
        await twin.restore!(JSON.parse(JSON.stringify(agent.snapshot!())));
      }
      if (isStop(decision) || frame.state === 'WIN') return false;
      const action = decision as AgentAction;
      frame =
        action.id === 0 ? await transport.reset(card, game.game_id, frame.guid) : await transport.act(card, game.game_id, frame.guid, action as GameAction);
    }
    return false;
  } finally {
    await transport.close();
  }
}

describe('llm snapshot and restore', () => {
  it.each(SETUPS.map((setup) => [setup.name, setup] as const))(
    '%s: a restored agent decides as the uninterrupted one and sends the same next request',
    async (_name, setup) => {
      let compared = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.nat(10),
          fc.constantFrom(1, 3),
          fc.constantFrom('summary', 'off', ...(setup.name === 'chat' ? [] : ['native'])),
          async (cut, batch, compaction) => {
            setup.answer(batch);
            const params = { ...setup.params(), max_actions_per_turn: batch, compaction, context_tokens: 1_000, recent_turns: 1 };
            if (await playWithTwin(setup, params, cut)) compared++;
          },
        ),
        { numRuns: 12 },
      );
      expect(compared).toBeGreaterThan(6);
    },
    120_000,
  );

  it('refuses a snapshot of another shape with a sentence saying what to do', async () => {
    const transport = referenceTransport(1);
    const game = (await transport.listGames()).find((g) => g.game_id === crat.gameId)!;
    await transport.close();
    const agent = await createAgent({ api: 'chat', base_url: chat.server.baseUrl }, game, 1);
    expect(() => agent.restore!({ turns: [] })).toThrow(/not one of this version's \(expected an object with version 1\); play the episode again from RESET/);
  });
});
