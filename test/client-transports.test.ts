/**
 * Both transports against the real reference service: InProcessTransport on a ReferenceService, and
 * HttpTransport on the real server on 127.0.0.1 (one or several emulated backends, injected 429s, keys).
 */
import { Buffer } from 'node:buffer';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, makeAction } from '../src/protocol/index.ts';
import type { FrameResponse, GameAction, ScorecardAnswer } from '../src/protocol/index.ts';
import { HttpTransport } from '../src/client/httpTransport.ts';
import { actAtOnce, answersAtOnce, InProcessTransport } from '../src/client/inProcessTransport.ts';
import type { Transport } from '../src/client/transport.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { startServer } from '../src/reference/server/index.ts';
import type { RunningServer } from '../src/reference/server/index.ts';

const KEY = 'client-test-key';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  // Transports first, then servers: a server waits for keep-alive connections to go.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const running = await startServer({ logger: false, ...options });
  cleanups.push(() => running.close());
  return running;
}

function http(baseUrl: string, options: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}): HttpTransport {
  const transport = new HttpTransport({ baseUrl, apiKey: KEY, retryBaseDelayMs: 5, ...options });
  cleanups.push(() => transport.close());
  return transport;
}

const SCRIPT: readonly (GameAction | 'RESET')[] = [
  makeAction(1),
  makeAction(2, { thought: 'try down' }),
  makeAction(6, 10, 12),
  makeAction(3, 'a reasoning string'),
  makeAction(4),
  makeAction(7),
  'RESET',
  makeAction(6, 63, 0),
  makeAction(2),
];

/** The id of the first game the service lists (every service here has games). */
async function firstGameId(transport: Transport): Promise<string> {
  const [game] = await transport.listGames();
  if (game === undefined) throw new Error('the service lists no game');
  return game.game_id;
}

/** Opens a card, plays SCRIPT in one session of the first game, closes; every answer in order. */
async function playScript(transport: Transport): Promise<{ frames: FrameResponse[]; card: ScorecardAnswer }> {
  const gameId = await firstGameId(transport);
  const cardId = await transport.openScorecard({ tags: ['parity'], source_url: 'https://example.org/agent' });
  const first = await transport.reset(cardId, gameId);
  const frames = [first];
  for (const step of SCRIPT) {
    frames.push(step === 'RESET' ? await transport.reset(cardId, gameId, first.guid) : await transport.act(cardId, gameId, first.guid, step));
  }
  return { frames, card: await transport.closeScorecard(cardId) };
}

/** A frame response without its grids and guid, for comparison (grids are compared bytewise). */
function frameMeta(response: FrameResponse): unknown {
  const { frame: _frame, guid: _guid, ...rest } = response;
  return rest;
}

/** A scorecard without what differs between two services: ids and timestamps. */
function cardShape(card: ScorecardAnswer): unknown {
  const { card_id: _id, open_at: _o, last_update: _l, published_at: _p, ...rest } = card;
  return {
    ...rest,
    environments: card.environments!.map((env) => ({ ...env, runs: env.runs!.map(({ guid: _g, ...run }) => run) })),
  };
}

describe('InProcessTransport and HttpTransport', () => {
  it('give identical frame responses and scorecards for the same play', async () => {
    const running = await server();
    const inProcess = new InProcessTransport(new ReferenceService(), { key: KEY });
    const local = await playScript(inProcess);
    const remote = await playScript(http(running.url));

    expect(remote.frames.length).toBe(local.frames.length);
    for (let i = 0; i < local.frames.length; i++) {
      const a = local.frames[i]!;
      const b = remote.frames[i]!;
      expect(frameMeta(b), `response ${i}`).toEqual(frameMeta(a));
      expect(b.frame.length, `response ${i} grid count`).toBe(a.frame.length);
      for (let g = 0; g < a.frame.length; g++) {
        expect(b.frame[g]).toBeInstanceOf(Uint8Array);
        expect(Buffer.compare(Buffer.from(a.frame[g]!), Buffer.from(b.frame[g]!)), `response ${i} grid ${g}`).toBe(0);
      }
    }
    // The session's guid is the same throughout, on both sides.
    expect(new Set(remote.frames.map((f) => f.guid)).size).toBe(1);
    expect(cardShape(remote.card)).toEqual(cardShape(local.card));
    expect(remote.card.published_at).toBeTruthy();
    expect(remote.card.total_actions).toBeGreaterThan(0);
    expect(inProcess.stats()).toEqual({ requests: 1 + 1 + 1 + SCRIPT.length + 1, retries: {}, unconfirmedOpens: 0, missingFields: [] });
  });

  it('surface service errors as the same ApiError', async () => {
    const running = await server();
    const transports = [new InProcessTransport(new ReferenceService(), { key: KEY }), http(running.url)];
    for (const transport of transports) {
      // The loop's fast path is the in-process transport's alone, not part of what a transport implements.
      expect(answersAtOnce(transport), transport.target).toBe(transport instanceof InProcessTransport);
      const cardId = await transport.openScorecard();
      const failure = await transport.act(cardId, 'crat', '00000000-0000-4000-8000-000000000000', makeAction(1)).catch((e: unknown) => e);
      expect(failure, transport.target).toBeInstanceOf(ApiError);
      expect((failure as ApiError).status).toBe(400);
      expect((failure as ApiError).code).toBe('SERVER_ERROR');
      const missing = await transport.getGame('zzzz').catch((e: unknown) => e);
      expect((missing as ApiError).status).toBe(404);
    }
  });

  it("in-process, the episode loop's actAtOnce answers at once what act answers, counts the same, and throws act's error", async () => {
    const answers = [];
    for (const now of [false, true]) {
      const transport = new InProcessTransport(new ReferenceService({ seed: 3 }), { key: KEY });
      expect(answersAtOnce(transport)).toBe(true);
      const cardId = await transport.openScorecard();
      const { guid } = await transport.reset(cardId, 'crat');
      const action = makeAction(6, 10, 12, 'why');
      answers.push(now ? (transport[actAtOnce](cardId, 'crat', guid, action) as FrameResponse) : await transport.act(cardId, 'crat', guid, action));
      expect(transport.stats().requests).toBe(3);
      const lost = '00000000-0000-4000-8000-000000000000';
      if (now) expect(() => transport[actAtOnce](cardId, 'crat', lost, action)).toThrow(ApiError);
      else await expect(transport.act(cardId, 'crat', lost, action)).rejects.toThrow(ApiError);
    }
    const [later, atOnce] = answers;
    expect(frameMeta(atOnce!)).toEqual(frameMeta(later!));
    expect(Buffer.compare(Buffer.from(atOnce!.frame.at(-1)!), Buffer.from(later!.frame.at(-1)!))).toBe(0);
  });
});

describe('HttpTransport against the reference server', () => {
  it('accepts a base URL with trailing slashes or an /api suffix', async () => {
    const running = await server();
    for (const suffix of ['/', '//', '/api', '/api/']) {
      const games = await http(running.url + suffix).listGames();
      expect(games.length, suffix).toBeGreaterThan(0);
    }
  });

  it('reports a wrong key as ApiError 401, without retrying', async () => {
    const running = await server({ keys: new Map([['the-right-key', { user_name: 'tester', user_id: 'u1' }]]) });
    const transport = http(running.url, { apiKey: 'a-wrong-key' });
    const failure = await transport.listGames().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect((failure as ApiError).message).not.toContain('a-wrong-key');
    expect(transport.stats()).toEqual({ requests: 1, retries: {}, unconfirmedOpens: 0, missingFields: [] });
    expect(await http(running.url, { apiKey: 'the-right-key' }).listGames()).not.toHaveLength(0);
  });

  for (const rotateAffinity of [1, 2]) {
    it(`keeps every card on its backend across 3 backends, rotating the cookie every ${rotateAffinity} answer(s)`, async () => {
      // No time grace: only the last 64 generations route, so a client that replays an old snapshot would
      // lose its backend here (the hosted balancer, and our default, would forgive it for a day).
      const running = await server({ backendCount: 3, rotateAffinity, affinityGraceMs: 0 });
      const transport = http(running.url, { connections: 32 });
      const gameId = await firstGameId(transport);
      const CARDS = 4;
      const SESSIONS = 3;
      // 3 × 45 answers per card rotate the cookie more than the server's 64 generations of grace even at
      // every 2nd answer.
      const ACTIONS = 45;

      const results = await Promise.all(
        Array.from({ length: CARDS }, async (_, card) => {
          const cardId = await transport.openScorecard({ tags: [`card-${card}`] });
          const counted = await Promise.all(
            Array.from({ length: SESSIONS }, (_, session) => playCountingActions(transport, cardId, gameId, ACTIONS, card * 7 + session)),
          );
          const closed = await transport.closeScorecard(cardId);
          return { cardId, closed, expectedActions: counted.reduce((a, b) => a + b, 0) };
        }),
      );
      for (const { cardId, closed, expectedActions } of results) {
        expect(closed.card_id).toBe(cardId);
        expect(closed.total_actions, cardId).toBe(expectedActions);
        expect(closed.environments).toHaveLength(1);
        expect(closed.environments?.[0]?.runs?.length).toBeGreaterThanOrEqual(SESSIONS);
      }
      // Cards were spread over the backends, so affinity really was needed.
      const cardsPerBackend = await Promise.all(
        running.backends.map((backend) => results.filter(({ cardId }) => readable(() => backend.getScorecard(KEY, cardId))).length),
      );
      expect(cardsPerBackend.filter((n) => n > 0).length).toBeGreaterThan(1);
      expect(cardsPerBackend.reduce((a, b) => a + b, 0)).toBe(CARDS);
    });
  }

  it('retries injected 429s until every action succeeds, and counts them', async () => {
    const running = await server({ inject429Every: 3 });
    const transport = http(running.url);
    const gameId = await firstGameId(transport);
    const cardId = await transport.openScorecard();
    const counted = await playCountingActions(transport, cardId, gameId, 30, 1);
    const closed = await transport.closeScorecard(cardId);
    expect(closed.total_actions).toBe(counted);
    const { requests, retries } = transport.stats();
    expect(retries['429']).toBeGreaterThan(0);
    // Every third request was refused: the retries make up exactly the difference.
    expect(requests - (retries['429'] ?? 0)).toBe(1 + 1 + 1 + 30 + 1);
    expect(Object.keys(retries)).toEqual(['429']);
  });
});

/**
 * One session playing `actions` actions, resetting when the game ends; returns how many of its
 * requests the service counts as actions (docs/protocol.md §4: every ACTION, and every RESET that is not full).
 */
async function playCountingActions(transport: Transport, cardId: string, gameId: string, actions: number, seed: number): Promise<number> {
  let response = await transport.reset(cardId, gameId);
  const guid = response.guid;
  let counted = 0;
  let rng = seed * 2654435761 + 1;
  const next = () => {
    rng = (rng * 1103515245 + 12345) % 2147483648;
    return rng;
  };
  for (let i = 0; i < actions; i++) {
    if (response.state === 'WIN' || response.state === 'GAME_OVER') {
      response = await transport.reset(cardId, gameId, guid);
      if (!response.full_reset) counted++;
      continue;
    }
    const pick = next() % 6;
    const action = pick === 5 ? makeAction(6, next() % 64, next() % 64) : makeAction((pick + 1) as 1 | 2 | 3 | 4 | 5);
    response = await transport.act(cardId, gameId, guid, action);
    expect(response.guid).toBe(guid);
    counted++;
  }
  return counted;
}

function readable(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch {
    return false;
  }
}
