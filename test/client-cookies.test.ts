/**
 * Cookie jars per scorecard (docs/protocol.md §7), through HttpTransport against a raw HTTP server that sets
 * random cookies on every answer and records the Cookie header it receives: each request must carry the
 * newest value of every cookie a success answer of its card set, and nothing else. Error answers (and
 * 429s) carry cookies too, but they cannot be checked against their request, so theirs are not kept.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeAction } from '../src/protocol/index.ts';
import { HttpTransport } from '../src/client/httpTransport.ts';

interface CookieSet {
  name: string;
  value: string;
  /** Sent as `Max-Age=0`: the cookie goes away. */
  remove: boolean;
  /** Without a Path the cookie's default path would be `/api/cmd`; it must still go everywhere. */
  withPath: boolean;
  /** Lifetime as an absolute Expires date (as the hosted balancer sends) instead of Max-Age. */
  absolute: boolean;
}
interface ScriptedAnswer {
  status: 200 | 400 | 404 | 429 | 500;
  cookies: CookieSet[];
  /** Set-Cookie lines sent as they are, after those of `cookies`. */
  raw?: string[];
}

let script: ScriptedAnswer[] = [];
let received: (string | undefined)[] = [];
const server = createServer(async (request, response) => {
  const answer = script[received.length] ?? { status: 400, cookies: [] };
  received.push(request.headers.cookie);
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const lifetime = (c: CookieSet) =>
    c.absolute ? `; Expires=${new Date(Date.now() + (c.remove ? -3_600_000 : 3_600_000)).toUTCString()}` : c.remove ? '; Max-Age=0' : '; Max-Age=3600';
  const setCookie = [...answer.cookies.map((c) => `${c.name}=${c.value}${c.withPath ? '; Path=/' : ''}${lifetime(c)}; HttpOnly`), ...(answer.raw ?? [])];
  response.writeHead(answer.status, { 'content-type': 'application/json', 'set-cookie': setCookie, ...(answer.status === 429 ? { 'retry-after': '0' } : {}) });
  response.end(
    answer.status === 200
      ? frameFor(request.url!, JSON.parse(Buffer.concat(chunks).toString()))
      : JSON.stringify({ error: 'SERVER_ERROR', message: `scripted ${answer.status}` }),
  );
});

/** The frame answer of an action request: its session, game and action, one blank grid. */
function frameFor(path: string, body: { game_id: string; guid: string }): string {
  const id = Number(/ACTION(\d)$/.exec(path)![1]);
  const grid = Array.from({ length: 64 }, () => new Array<number>(64).fill(0));
  return JSON.stringify({
    game_id: body.game_id,
    guid: body.guid,
    frame: [grid],
    state: 'NOT_FINISHED',
    levels_completed: 0,
    win_levels: 1,
    action_input: { id, data: { game_id: body.game_id } },
    available_actions: [1, 2, 3, 4],
    full_reset: false,
  });
}
let transport: HttpTransport;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  transport = new HttpTransport({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'cookie-test-key', retryBaseDelayMs: 1, maxRetries: 50 });
});
afterAll(async () => {
  await transport.close();
  server.close();
  await once(server, 'close');
});

const cookieSet = fc.record({
  name: fc.constantFrom('AWSALB', 'AWSALBCORS', 'session', 'x'),
  value: fc.stringMatching(/^[A-Za-z0-9]{1,8}$/),
  remove: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
  withPath: fc.boolean(),
  absolute: fc.boolean(),
});
const answer = fc.record({
  status: fc.constantFrom(200 as const, 200 as const, 400 as const, 404 as const, 429 as const, 500 as const),
  cookies: fc.array(cookieSet, { maxLength: 3 }),
});

function parseCookieHeader(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq > 0) {
      const name = part.slice(0, eq).trim();
      expect(cookies[name], `cookie ${name} sent twice in "${header}"`).toBeUndefined();
      cookies[name] = part.slice(eq + 1).trim();
    }
  }
  return cookies;
}

describe('cookie jar per scorecard', () => {
  it('sends the newest value of every cookie any earlier success answer of the card set', async () => {
    let card = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 12 }), async (answers) => {
        script = answers;
        received = [];
        const cardId = `card-${card++}`; // a new card: a new, empty jar
        // One request more than scripted, to see what the last answer left in the jar.
        while (received.length <= answers.length) {
          await transport.act(cardId, 'crat', 'guid', makeAction(1)).catch(() => undefined);
        }
        const expected: Record<string, string> = {};
        for (let i = 0; i < received.length; i++) {
          expect(parseCookieHeader(received[i]), `request ${i}`).toEqual(expected);
          if (script[i]?.status !== 200) continue;
          for (const c of script[i]?.cookies ?? []) {
            if (c.remove) delete expected[c.name];
            else expected[c.name] = c.value;
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('stops sending a cookie once its Expires date has passed, though no answer came in between', async () => {
    const soon = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000); // HTTP dates have whole seconds
    script = [{ status: 200, cookies: [], raw: [`short=lived; Path=/; Expires=${soon.toUTCString()}`] }];
    received = [];
    await transport.act('card-short', 'crat', 'g', makeAction(1)).catch(() => undefined);
    await transport.act('card-short', 'crat', 'g', makeAction(1)).catch(() => undefined);
    // Rather than wait two seconds for Expires to pass, move the clock (Date alone; timers stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: soon.getTime() + 50 });
    try {
      await transport.act('card-short', 'crat', 'g', makeAction(1)).catch(() => undefined);
    } finally {
      vi.useRealTimers();
    }
    expect(received).toEqual([undefined, 'short=lived', undefined]);
  });

  it("keeps cards apart: one card's cookies never go with another card's requests", async () => {
    script = [{ status: 200, cookies: [{ name: 'AWSALB', value: 'card-a-backend', remove: false, withPath: true, absolute: true }] }];
    received = [];
    await transport.act('card-a', 'crat', 'g', makeAction(1)).catch(() => undefined);
    await transport.act('card-b', 'crat', 'g', makeAction(1)).catch(() => undefined);
    await transport.act('card-a', 'crat', 'g', makeAction(1)).catch(() => undefined);
    expect(received).toEqual([undefined, undefined, 'AWSALB=card-a-backend']);
  });
});
