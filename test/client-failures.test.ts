/**
 * HttpTransport when the network fails: refused connections, a server that accepts and never answers,
 * Retry-After. The misbehaving servers are tiny raw servers written here; nothing of ours is mocked.
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, makeAction } from '../src/protocol/index.ts';
import { HttpTransport } from '../src/client/httpTransport.ts';
import { TransportError } from '../src/client/transport.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function http(baseUrl: string, options: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}): HttpTransport {
  const transport = new HttpTransport({ baseUrl, apiKey: 'failure-test-key', retryBaseDelayMs: 5, ...options });
  cleanups.push(() => transport.close());
  return transport;
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  const port = await listen(server);
  server.close();
  await once(server, 'close');
  return port;
}

/** A server that accepts connections, reads requests, and never answers; counts what it got. */
async function stallServer(): Promise<{ url: string; connections: number; closed: number; requestLines: string[] }> {
  const sockets = new Set<Socket>();
  const state = { url: '', connections: 0, closed: 0, requestLines: [] as string[] };
  const server = createNetServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => state.closed++);
    socket.on('data', (chunk) => {
      for (const line of chunk.toString('latin1').split('\r\n')) if (/^(GET|POST) /.test(line)) state.requestLines.push(line);
    });
    socket.on('error', () => {});
  });
  state.url = `http://127.0.0.1:${await listen(server)}`;
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });
  return state;
}

/** An HTTP server answering request n with `answers[n]` (the last one repeats). */
async function scriptedServer(answers: ((request: IncomingMessage, response: ServerResponse) => void)[]): Promise<{ url: string; arrivals: number[] }> {
  const arrivals: number[] = [];
  const server = createHttpServer((request, response) => {
    arrivals.push(performance.now());
    request.resume();
    answers[Math.min(arrivals.length - 1, answers.length - 1)]!(request, response);
  });
  const url = `http://127.0.0.1:${await listen(server)}`;
  cleanups.push(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });
  return { url, arrivals };
}

const tooMany = (retryAfter: string) => (_: IncomingMessage, response: ServerResponse) => {
  response.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
  response.end(JSON.stringify({ error: 'RATE_LIMIT_EXCEEDED', message: 'slow down' }));
};
const emptyGameList = (_: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('[]');
};

describe('HttpTransport failures', () => {
  it('retries a refused connection, then reports the service unreachable', async () => {
    const transport = http(`http://127.0.0.1:${await closedPort()}`, { maxRetries: 3 });
    const failure = await transport.listGames().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('unreachable');
    expect((failure as TransportError).message).toMatch(/ECONNREFUSED/);
    expect(transport.stats()).toEqual({ requests: 4, retries: { connection_refused: 3 }, unconfirmedOpens: 0, missingFields: [] });
  });

  it('retries an action on a refused connection too: it surely was not sent', async () => {
    const transport = http(`http://127.0.0.1:${await closedPort()}`, { maxRetries: 2 });
    const failure = await transport.act('card', 'crat', 'guid', makeAction(1)).catch((e: unknown) => e);
    expect((failure as TransportError).kind).toBe('unreachable');
    expect(transport.stats().retries).toEqual({ connection_refused: 2 });
  });

  it('does not resend an action after a timeout: the error is ambiguous and names the action', async () => {
    const stall = await stallServer();
    const transport = http(stall.url, { requestTimeoutMs: 200, maxRetries: 5 });
    const failure = await transport.act('card-1', 'crat-a280ea19', 'guid-42', makeAction(6, 3, 4)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).kind).toBe('ambiguous');
    expect((failure as TransportError).message).toMatch(/ACTION6 at \(3, 4\) on session guid-42 \(crat-a280ea19\)/);
    expect((failure as TransportError).message).toMatch(/timed out/);
    // The client drops the timed-out connection; once the server has seen it go, whatever the client sent
    // before giving up (a wrong resend included) has arrived.
    await vi.waitFor(() => expect(stall.closed).toBe(stall.connections), { timeout: 10_000, interval: 10 });
    expect(stall.connections).toBe(1);
    expect(stall.requestLines).toEqual(['POST /api/cmd/ACTION6 HTTP/1.1']);
    expect(transport.stats()).toEqual({ requests: 1, retries: {}, unconfirmedOpens: 0, missingFields: [] });
  });

  it('does resend a GET after a timeout, up to the bound', async () => {
    const stall = await stallServer();
    // undici's answer timers tick about once a second, so each attempt takes ~1 s here whatever the setting.
    const transport = http(stall.url, { requestTimeoutMs: 100, maxRetries: 1 });
    const failure = await transport.getScorecard('some-card').catch((e: unknown) => e);
    expect((failure as TransportError).kind).toBe('unreachable');
    expect(stall.requestLines).toEqual(Array(2).fill('GET /api/scorecard/some-card HTTP/1.1'));
    expect(transport.stats().retries).toEqual({ timeout: 1 });
  });

  it('treats an answer cut off mid-body as ambiguous for an action, and keeps nothing of it, not even its cookie', async () => {
    const requests: string[] = [];
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (chunk) => {
        const head = chunk.toString('latin1');
        requests.push(head);
        if (requests.length === 1) {
          // Headers with a cookie, then a third of the promised body, then the connection drops.
          socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 300\r\nset-cookie: AWSALB=after-cut; Path=/\r\n\r\n{"game_id":');
          setTimeout(() => socket.destroy(), 20);
        } else {
          const body = JSON.stringify({ error: 'SERVER_ERROR', message: 'game g not found' });
          socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
        }
      });
    });
    const url = `http://127.0.0.1:${await listen(server)}`;
    cleanups.push(async () => {
      server.close();
      await once(server, 'close');
    });
    const transport = http(url);
    const failure = await transport.act('card-c', 'crat', 'guid-c', makeAction(3)).catch((e: unknown) => e);
    expect((failure as TransportError).kind).toBe('ambiguous');
    expect((failure as TransportError).message).toMatch(/ACTION3 on session guid-c.*while reading the HTTP 200 answer/);
    const next = await transport.act('card-c', 'crat', 'guid-c', makeAction(1)).catch((e: unknown) => e);
    expect((next as ApiError).status).toBe(400);
    expect(requests).toHaveLength(2);
    // An answer that did not arrive whole cannot be checked against its request: its cookie is not kept.
    expect(requests[1]).not.toMatch(/^cookie:/m);
  });

  it('treats a 502 answer to an action as ambiguous, and retries it for a GET', async () => {
    const badGateway = (_: IncomingMessage, response: ServerResponse) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body>502 Bad Gateway</body></html>');
    };
    const scripted = await scriptedServer([badGateway, emptyGameList]);
    const transport = http(scripted.url);
    const failure = await transport.act('card', 'crat', 'g', makeAction(1)).catch((e: unknown) => e);
    expect((failure as TransportError).kind).toBe('ambiguous');
    expect((failure as TransportError).message).toMatch(/HTTP 502/);
    expect(await transport.listGames()).toEqual([]);
    expect(scripted.arrivals).toHaveLength(2);
  });

  it('waits at least the Retry-After the service asked for', async () => {
    const scripted = await scriptedServer([tooMany('1'), emptyGameList]);
    const transport = http(scripted.url);
    expect(await transport.listGames()).toEqual([]);
    expect(scripted.arrivals).toHaveLength(2);
    expect(scripted.arrivals[1]! - scripted.arrivals[0]!).toBeGreaterThanOrEqual(990);
    expect(transport.stats()).toEqual({ requests: 2, retries: { '429': 1 }, unconfirmedOpens: 0, missingFields: [] });
  });

  it('gives up at once with the 429 when Retry-After is beyond the wait bound', async () => {
    const scripted = await scriptedServer([tooMany('3600')]);
    const transport = http(scripted.url, { maxRetryWaitMs: 5_000 });
    const failure = await transport.listGames().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(429);
    expect((failure as ApiError).retryAfterSeconds).toBe(3600);
    expect(scripted.arrivals).toHaveLength(1);
  });

  it('reads the card when a retried close finds it already closed by the attempt that failed', async () => {
    const json = (status: number, body: unknown) => (_: IncomingMessage, response: ServerResponse) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const closedCard = {
      card_id: 'card-9',
      score: 0,
      environments: [],
      published_at: '2025-01-01T00:00:00.000Z',
      total_environments_completed: 0,
      total_environments: 0,
      total_levels_completed: 0,
      total_levels: 0,
      total_actions: 0,
    };
    const paths: string[] = [];
    const recordPath = (answer: (request: IncomingMessage, response: ServerResponse) => void) => (request: IncomingMessage, response: ServerResponse) => {
      paths.push(`${request.method} ${request.url}`);
      answer(request, response);
    };
    const scripted = await scriptedServer([
      recordPath(json(500, { error: 'SERVER_ERROR', message: 'closed, then failed' })),
      recordPath(json(404, { error: 'VALIDATION_ERROR', message: 'card not found' })),
      recordPath(json(200, closedCard)),
    ]);
    const transport = http(scripted.url);
    const card = await transport.closeScorecard('card-9');
    expect(card.published_at).toBe(closedCard.published_at);
    expect(paths).toEqual(['POST /api/scorecard/close', 'POST /api/scorecard/close', 'GET /api/scorecard/card-9']);
    expect(transport.stats()).toEqual({ requests: 3, retries: { '5xx': 1 }, unconfirmedOpens: 0, missingFields: [] });
  });

  it('reports an answer that does not parse as a protocol error with the status and the body', async () => {
    const scripted = await scriptedServer([
      (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"card_id": 42}');
      },
    ]);
    const transport = http(scripted.url);
    const failure = await transport.openScorecard().catch((e: unknown) => e);
    expect((failure as TransportError).kind).toBe('protocol');
    expect((failure as TransportError).message).toMatch(/HTTP 200.*card_id.*\{"card_id": 42\}/);
  });
});
