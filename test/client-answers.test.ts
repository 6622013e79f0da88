/**
 * HttpTransport checks every answer against its request before it uses anything of it (issue 10,
 * points 1, 9, 10, 13): a duplicated answer on a keep-alive connection, ids a client must not name files
 * with, sparse scorecards, and scorecard opens whose answer was lost. The servers are raw sockets
 * written here, so they can misbehave exactly; nothing of ours is mocked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeAction } from '../src/protocol/index.ts';
import { HttpTransport } from '../src/client/httpTransport.ts';
import { TransportError } from '../src/client/transport.ts';
import { answerBytes, frameJson, type WireRequest } from './support/httpWire.ts';
import { startRawServer } from './support/rawServer.ts';

const GAME = 'crat-0123abcd';
const GUID_A = '11111111-1111-4111-8111-111111111111';
const GUID_B = '22222222-2222-4222-8222-222222222222';
const CARD = '33333333-3333-4333-8333-333333333333';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rawServer(answer: Parameters<typeof startRawServer>[0]) {
  const server = await startRawServer(answer);
  cleanups.push(() => server.close());
  return server;
}

function http(url: string, options: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}) {
  const transport = new HttpTransport({ baseUrl: url, apiKey: 'answers-test-key', retryBaseDelayMs: 1, ...options });
  cleanups.push(() => transport.close());
  return transport;
}

/** The frame answer a well-behaved server gives to an action request. */
function echoFrame(request: WireRequest, cookie: string): Buffer {
  const body = JSON.parse(request.body.toString()) as { game_id: string; guid: string };
  const id = Number(/ACTION(\d)$/.exec(request.path)?.[1] ?? 0);
  return answerBytes(
    200,
    [
      ['content-type', 'application/json'],
      ['set-cookie', `AWSALB=${cookie}; Path=/`],
    ],
    frameJson(body.game_id, body.guid, id),
  );
}

async function failureOf(promise: Promise<unknown>): Promise<TransportError> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(TransportError);
  return failure as TransportError;
}

describe('answers checked against their requests', () => {
  it('refuses an answer sent twice on a keep-alive connection, keeps none of its cookies, and closes that connection', async () => {
    let previous: Buffer | undefined;
    const server = await rawServer((request, index, socket) => {
      const fresh = echoFrame(request, `backend-of-request-${index}`);
      // The second request on the connection first gets the first answer again, then its own.
      if (index === 1) socket.write(previous!);
      setTimeout(() => socket.write(fresh), index === 1 ? 30 : 0);
      previous = fresh;
    });
    const transport = http(server.url, { connections: 1 });
    await transport.act('card-a', GAME, GUID_A, makeAction(1));
    const failure = await failureOf(transport.act('card-b', GAME, GUID_B, makeAction(2)));
    expect(failure.kind).toBe('protocol');
    expect(failure.message).toMatch(/ACTION2 on session 2222.*belongs to another request.*session "1111.*action 1.*connection was closed/);
    const third = await transport.act('card-b', GAME, GUID_B, makeAction(3));
    expect(third.action_input.id).toBe(3);
    // The third request went on a new connection, without the cookie of card a's answer.
    expect(server.arrivals.map((a) => a.connection)).toEqual([0, 0, 1]);
    expect(server.arrivals[2]!.request.headers.cookie).toBeUndefined();
    const fourth = await transport.act('card-a', GAME, GUID_A, makeAction(4));
    expect(fourth.guid).toBe(GUID_A);
    expect(server.arrivals[3]!.request.headers.cookie).toBe('AWSALB=backend-of-request-0');
  });

  it('retires the pool when an answer out of step came without a length, so no later request gets the stale answer', async () => {
    let previous: Buffer | undefined;
    const chunked = (bytes: Buffer) => {
      const text = bytes.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const body = Buffer.from(text.slice(split + 4), 'latin1');
      const head = text.slice(0, split).replace(/\r\ncontent-length: \d+/i, '\r\ntransfer-encoding: chunked');
      return Buffer.concat([Buffer.from(`${head}\r\n\r\n${body.length.toString(16)}\r\n`, 'latin1'), body, Buffer.from('\r\n0\r\n\r\n')]);
    };
    // Answers on a connection go out in order: the stale one at once, the real answer 2 a little later,
    // and answer 3 after that, so a third request on the same connection would get answer 2.
    const server = await rawServer((request, index, socket) => {
      const fresh = chunked(echoFrame(request, `b${index}`));
      if (index === 1) socket.write(previous!);
      setTimeout(() => socket.write(fresh), [0, 50, 100][Math.min(index, 2)]);
      previous = fresh;
    });
    const transport = http(server.url, { connections: 1 });
    await transport.act('card-a', GAME, GUID_A, makeAction(1));
    expect((await failureOf(transport.act('card-b', GAME, GUID_B, makeAction(2)))).kind).toBe('protocol');
    expect((await transport.act('card-b', GAME, GUID_B, makeAction(3))).action_input.id).toBe(3);
    expect(server.arrivals.map((a) => a.connection)).toEqual([0, 0, 1]);
  });

  it('refuses a stale answer of another new session as the answer to a new session', async () => {
    const server = await rawServer((_request, _index, socket) =>
      socket.write(answerBytes(200, [['content-type', 'application/json']], frameJson(GAME, GUID_A, 0))),
    );
    const transport = http(server.url);
    expect((await transport.reset(CARD, GAME)).guid).toBe(GUID_A);
    const failure = await failureOf(transport.reset(CARD, GAME));
    expect(failure.message).toMatch(/RESET \(new session\).*belongs to another request.*session "1111/);
  });

  it('refuses ids that are not what the API defines, before they can name a file', async () => {
    const cases = [
      { guid: '../../x', game: GAME },
      { guid: GUID_A, game: 'crat-../../x' },
      { guid: GUID_A, game: 'crat/../../x' },
    ];
    let current = cases[0]!;
    const server = await rawServer((_request, _index, socket) => {
      socket.write(answerBytes(200, [['content-type', 'application/json']], frameJson(current.game, current.guid, 0)));
    });
    const transport = http(server.url);
    for (const bad of cases) {
      current = bad;
      const failure = await failureOf(transport.reset(CARD, 'crat', undefined));
      expect(failure.kind).toBe('protocol');
      expect(failure.message).toMatch(/RESET \(new session\) of crat/);
    }
  });

  it('accepts a bare slug answered with its full id, and a RESET of a known session', async () => {
    const server = await rawServer((request, _index, socket) => {
      const body = JSON.parse(request.body.toString()) as { guid?: string };
      socket.write(answerBytes(200, [['content-type', 'application/json']], frameJson(GAME, body.guid ?? GUID_A, 0)));
    });
    const transport = http(server.url);
    expect((await transport.reset(CARD, 'crat')).game_id).toBe(GAME);
    expect((await transport.reset(CARD, GAME, GUID_A)).guid).toBe(GUID_A);
    expect((await failureOf(transport.reset(CARD, 'lamp'))).message).toMatch(/belongs to another request/);
  });
});

describe('sparse answers', () => {
  const sparseCard = {
    card_id: CARD,
    score: 2.6,
    environments: [
      {
        id: GAME,
        score: 2.6,
        actions: 7,
        levels_completed: 1,
        runs: [{ guid: GUID_A, score: 2.6, state: 'NOT_STARTED', level_baseline_actions: [3, 4], made_up: 'kept' }],
      },
    ],
    total_environments_completed: 0,
    total_environments: 1,
    total_levels_completed: 1,
    total_levels: 2,
    total_actions: 7,
    competition_mode: false,
  };

  it('reads a scorecard whose run entries leave out id, number_of_levels and number_of_environments, keeping unknown fields', async () => {
    const server = await rawServer((_request, _index, socket) =>
      socket.write(answerBytes(200, [['content-type', 'application/json']], JSON.stringify(sparseCard))),
    );
    const warnings: Array<{ fields: object; message: string }> = [];
    const transport = http(server.url, { logger: { warn: (fields, message) => warnings.push({ fields, message }), debug: () => undefined } });
    const card = await transport.closeScorecard(CARD);
    expect(card.score).toBe(2.6);
    const run = card.environments![0]!.runs![0]!;
    expect(run).toMatchObject({ state: 'NOT_PLAYED', made_up: 'kept', level_baseline_actions: [3, 4] });
    expect(run.number_of_levels).toBeUndefined();
    expect(warnings).toEqual([]); // nothing arcbench uses was missing
  });

  it('warns once per run about a missing field it uses, and lists it in its stats', async () => {
    const { total_actions: _dropped, ...withoutTotal } = sparseCard;
    const server = await rawServer((request, _index, socket) => {
      const body = request.path.endsWith('/api/games') ? JSON.stringify([{ game_id: GAME, title: 'Crate', tags: ['keyboard'] }]) : JSON.stringify(withoutTotal);
      socket.write(answerBytes(200, [['content-type', 'application/json']], body));
    });
    const warnings: string[] = [];
    const transport = http(server.url, { logger: { warn: (_fields, message) => warnings.push(message), debug: () => undefined } });
    await transport.getScorecard(CARD);
    await transport.getScorecard(CARD);
    const game = (await transport.listGames())[0]!;
    expect(game.baseline_actions).toBeUndefined();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/leave out scorecard\.total_actions, which arcbench uses to compare/);
    expect(warnings[1]).toMatch(/leave out game\.baseline_actions.*per-level budgets/);
    expect(transport.stats().missingFields).toEqual(['scorecard.total_actions', 'game.baseline_actions']);
  });

  // As the toolkit's server words them: actions_by_level holds [levels completed, actions then] per completion.
  const plays = {
    won: 0,
    played: 1,
    total_actions: 9,
    levels_completed: 1,
    cards: {
      [GAME]: {
        game_id: GAME,
        actions: [4, 5],
        actions_by_level: [[], [[1, 3]]],
        guids: [GUID_A, GUID_A],
        levels_completed: [0, 1],
        resets: [1, 0],
        states: ['GAME_OVER', 'NOT_FINISHED'],
        total_actions: 9,
        total_plays: 2,
      },
    },
  };

  it('reads the per-game path answered with the game’s plays (the toolkit) as run entries, and warns of nothing', async () => {
    const server = await rawServer((_request, _index, socket) => socket.write(answerBytes(200, [['content-type', 'application/json']], JSON.stringify(plays))));
    const warnings: string[] = [];
    const transport = http(server.url, { logger: { warn: (_fields, message) => warnings.push(message), debug: () => undefined } });
    const card = await transport.getScorecard(CARD, GAME);
    expect(card).toEqual({
      environments: [
        {
          id: GAME,
          runs: [
            { guid: GUID_A, actions: 4, resets: 1, levels_completed: 0 },
            { guid: GUID_A, actions: 5, resets: 0, levels_completed: 1 },
          ],
        },
      ],
    });
    expect(warnings).toEqual([]);
    expect(transport.stats().missingFields).toEqual([]);
  });

  it('refuses plays whose actions_by_level is not of pairs, instead of reading them as an empty card', async () => {
    const flat = { ...plays, cards: { [GAME]: { ...plays.cards[GAME], actions_by_level: [[4], [3, 2]] } } };
    const server = await rawServer((_request, _index, socket) => socket.write(answerBytes(200, [['content-type', 'application/json']], JSON.stringify(flat))));
    const failure = await failureOf(http(server.url).getScorecard(CARD, GAME));
    expect(failure.message).toMatch(/unexpected shape/);
  });

  it('still refuses a field that is present with the wrong type, naming it', async () => {
    const server = await rawServer((_request, _index, socket) =>
      socket.write(answerBytes(200, [['content-type', 'application/json']], JSON.stringify({ ...sparseCard, score: 'high' }))),
    );
    const failure = await failureOf(http(server.url).getScorecard(CARD));
    expect(failure.message).toMatch(/unexpected shape \(score: /);
  });
});

describe('scorecard open whose answer was lost', () => {
  const gatewayTimeout = answerBytes(504, [['content-type', 'text/html']], '<html>504</html>');
  const opened = (request: WireRequest) =>
    answerBytes(200, [['content-type', 'application/json']], JSON.stringify({ card_id: CARD, echo: request.body.length }));

  it('is repeated once at most, and every open that may have left a card behind is counted', async () => {
    const server = await rawServer((_request, _index, socket) => socket.write(gatewayTimeout));
    const transport = http(server.url, { maxRetries: 5 });
    const failure = await failureOf(transport.openScorecard({}));
    expect(failure.kind).toBe('ambiguous');
    expect(failure.message).toMatch(/open scorecard may or may not have been applied.*repeated once at most/);
    expect(server.arrivals).toHaveLength(2);
    expect(transport.stats().unconfirmedOpens).toBe(2);
  });

  it('counts the lost one when the repeat succeeds, and nothing for a 429', async () => {
    const server = await rawServer((request, index, socket) => {
      if (index === 0) socket.write(answerBytes(429, [['retry-after', '0']], '{"error":"RATE_LIMIT_EXCEEDED","message":"slow"}'));
      else if (index === 1) socket.write(gatewayTimeout);
      else socket.write(opened(request));
    });
    const transport = http(server.url);
    expect(await transport.openScorecard({})).toBe(CARD);
    expect(server.arrivals).toHaveLength(3);
    expect(transport.stats().unconfirmedOpens).toBe(1);
  });

  it('is not repeated in competition mode, and says why', async () => {
    const server = await rawServer((_request, _index, socket) => socket.write(gatewayTimeout));
    const transport = http(server.url);
    const failure = await failureOf(transport.openScorecard({ competition_mode: true }));
    expect(failure.message).toMatch(/open scorecard \(competition mode\) may or may not have been applied.*one open card.*refused/);
    expect(server.arrivals).toHaveLength(1);
    expect(transport.stats().unconfirmedOpens).toBe(1);
  });

  it('refuses a card id that is not a uuid', async () => {
    const server = await rawServer((_request, _index, socket) => socket.write(answerBytes(200, [], JSON.stringify({ card_id: '../cards/x' }))));
    const transport = http(server.url);
    expect((await failureOf(transport.openScorecard({}))).message).toMatch(/card_id "\.\.\/cards\/x" is not a uuid/);
    expect(transport.stats().unconfirmedOpens).toBe(1);
  });
});
