/**
 * An agent's snapshot() and restore(): an agent restored from a snapshot taken after any decision (and
 * carried through JSON, as a checkpoint file carries it) decides exactly what the uninterrupted agent
 * decides from then on, on the real in-process service.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import explorer from '../agents/explorer.ts';
import random from '../agents/random.ts';
import { isStop } from '../src/agent/actions.ts';
import type { Agent, AgentAction, AgentContext, AgentDecision } from '../src/agent/contract.ts';
import type { AgentDefinition } from '../src/agent/defineAgent.ts';
import { createRng } from '../src/agent/rng.ts';
import type { FrameResponse, GameAction, GameDescriptor } from '../src/protocol/index.ts';
import { referenceTransport } from '../src/runner/targets.ts';

async function createAgent(definition: AgentDefinition, game: GameDescriptor, seed: number): Promise<Agent> {
  const context: AgentContext<unknown> = {
    params: definition.params.parse({}),
    game,
    rng: createRng(seed),
    seed,
    episode: 0,
    label: definition.name,
    signal: new AbortController().signal,
    resolvePath: (path) => path,
    reportUsage: () => undefined,
    keepTranscript: () => undefined,
  };
  return definition.create(context as never);
}

/** Plays `steps` decisions; at `cut` the twin is made from a JSON round trip of the snapshot, and both must agree from then on. */
async function playWithTwin(definition: AgentDefinition, gameIndex: number, seed: number, cut: number, steps: number): Promise<number> {
  const transport = referenceTransport(seed);
  const games = await transport.listGames();
  const game = games[gameIndex % games.length]!;
  const card = await transport.openScorecard({});
  let frame: FrameResponse = await transport.reset(card, game.game_id);
  const agent = await createAgent(definition, game, seed);
  let twin: Agent | undefined;
  let compared = 0;
  for (let step = 0; step < steps; step++) {
    const info = { step, actions: step, levelActions: 0 };
    const decision: AgentDecision = await agent.act(frame, info);
    if (twin !== undefined) {
      expect(await twin.act(frame, info)).toEqual(decision);
      compared++;
    }
    if (step === cut) {
      twin = await createAgent(definition, game, seed);
      await twin.restore!(JSON.parse(JSON.stringify(agent.snapshot!())));
    }
    if (isStop(decision) || frame.state === 'WIN') break;
    const sent = decision as AgentAction;
    frame = sent.id === 0 ? await transport.reset(card, game.game_id, frame.guid) : await transport.act(card, game.game_id, frame.guid, sent as GameAction);
  }
  await transport.close();
  return compared;
}

describe('agent snapshot and restore', () => {
  it.each([
    ['explorer', explorer],
    ['random', random],
  ] as const)('%s restored from a snapshot decides what the uninterrupted agent decides', async (_name, definition) => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(20), fc.nat(), fc.nat(60), async (gameIndex, seed, cut) => {
        compared += await playWithTwin(definition as AgentDefinition, gameIndex, seed, cut, 120);
      }),
      { numRuns: 25 },
    );
    // The property is not empty: most runs compared many decisions after the cut.
    expect(compared).toBeGreaterThan(25 * 20);
  });

  it('the rng goes on from a saved state as it went on before', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(50), (seed, skip) => {
        const rng = createRng(seed);
        for (let i = 0; i < skip; i++) rng.next();
        const copy = createRng(0);
        copy.restoreState(rng.saveState());
        expect(Array.from({ length: 10 }, () => copy.int(1000))).toEqual(Array.from({ length: 10 }, () => rng.int(1000)));
      }),
    );
    expect(() => createRng(1).restoreState(-1)).toThrow(/not a state saveState\(\) returns/);
  });
});
