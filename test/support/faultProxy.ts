/**
 * A fault-injecting HTTP proxy of ours, on 127.0.0.1: it stands between a client and a server and, for
 * the requests a test picks, does what a bad network, proxy or load balancer does: answer an error
 * instead of forwarding, or forward and then lose the answer (an error status, a reset before or in the
 * middle of the answer, a cut body, a body that is not JSON, an answer too late), drop Set-Cookie, or
 * send an answer of another session again before the real one, as a balancer that answers twice does.
 * Every request is recorded with what was done to it and whether the server got it, so a test can count
 * the answers that were lost.
 *
 * Requests are read off the client's socket by hand (httpWire.ts) and answers written as raw bytes, so
 * each fault is exact; the server is reached with node:http over keep-alive connections.
 */
import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { answerBytes, readRequests, type WireRequest } from './httpWire.ts';

export type Fault =
  /** Answer `status` without forwarding (`before`), or forward and answer `status` instead of the server's answer (`after`). */
  | { kind: 'status'; status: number; when: 'before' | 'after'; retryAfter?: string }
  /** Forward, then reset the connection before any of the answer (`before_answer`) or after half of it (`mid_answer`). */
  | { kind: 'reset'; when: 'before_answer' | 'mid_answer' }
  /** Forward, then send the headers and half the body, and close the connection cleanly. */
  | { kind: 'truncated' }
  /** Forward, then answer 200 with a body that is not JSON. */
  | { kind: 'invalid_json' }
  /** Forward, then send the answer after `delayMs` (past the client's request timeout). */
  | { kind: 'slow'; delayMs: number }
  /** Forward, and pass the answer on without its Set-Cookie headers. */
  | { kind: 'drop_cookies' }
  /** Send the last answer of another session again, then forward and send the real answer. */
  | { kind: 'duplicate' };

export interface ProxiedRequest {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  /** `guid` of the request body, when it has one. */
  readonly guid: string | undefined;
  readonly fault: Fault | undefined;
  /** The server received the request. */
  forwarded: boolean;
  /** The server acted on it but the client did not get its answer whole and as it was sent. */
  answerLost: boolean;
}

/**
 * Decides the fault for each request (or none): `index` counts every request through the proxy;
 * `otherSessionAnswered` says whether a `duplicate` has an answer of another session to send.
 */
export type FaultPlan = (request: WireRequest, index: number, context: { otherSessionAnswered: boolean }) => Fault | undefined;

export interface FaultProxy {
  readonly url: string;
  readonly requests: readonly ProxiedRequest[];
  /** Requests the server got whose answer the client did not (actions among them were counted there, not here). */
  lostAnswers(filter?: (request: ProxiedRequest) => boolean): number;
  close(): Promise<void>;
}

interface Forwarded {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

export async function startFaultProxy(upstream: string, plan: FaultPlan): Promise<FaultProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  /** The last frame answer sent, and the last one of a session other than its own. */
  let lastAnswer: { bytes: Buffer; guid: string } | undefined;
  let answerBefore: { bytes: Buffer; guid: string } | undefined;
  const otherSessionAnswer = (guid: string | undefined) =>
    lastAnswer !== undefined && lastAnswer.guid !== guid ? lastAnswer : answerBefore?.guid !== guid ? answerBefore : undefined;

  const forward = (request: WireRequest): Promise<Forwarded> =>
    new Promise((resolve, reject) => {
      const headers = { ...request.headers, host: target.host, connection: 'keep-alive' };
      const outgoing = httpRequest({ host: target.hostname, port: target.port, method: request.method, path: request.path, headers, agent }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const pairs: Array<[string, string]> = [];
          for (let i = 0; i < incoming.rawHeaders.length; i += 2) pairs.push([incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!]);
          const kept = pairs.filter(([name]) => !/^(connection|keep-alive|transfer-encoding|content-length)$/i.test(name));
          resolve({ status: incoming.statusCode ?? 502, headers: kept, body: Buffer.concat(chunks) });
        });
        incoming.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let queue = Promise.resolve();
    readRequests(socket, (request) => {
      // One request at a time per connection, in order, as HTTP/1.1 without pipelining answers them.
      queue = queue
        .then(() => serve(socket, request))
        .catch(() => {
          socket.destroy(); // the server could not be reached: the client sees a reset
        });
    });
  });

  async function serve(socket: Socket, request: WireRequest): Promise<void> {
    const guid = guidOf(request.body);
    const stale = otherSessionAnswer(guid);
    const fault = plan(request, requests.length, { otherSessionAnswered: stale !== undefined });
    const record: ProxiedRequest = { index: requests.length, method: request.method, path: request.path, guid, fault, forwarded: false, answerLost: false };
    requests.push(record);
    if (socket.destroyed) return;
    if (fault?.kind === 'status' && fault.when === 'before') {
      socket.write(errorAnswer(fault.status, fault.retryAfter));
      return;
    }
    if (fault?.kind === 'duplicate' && stale !== undefined) socket.write(stale.bytes);
    const answer = await forward(request);
    record.forwarded = true;
    const bytes = answerBytes(
      answer.status,
      fault?.kind === 'drop_cookies' ? answer.headers.filter(([name]) => name.toLowerCase() !== 'set-cookie') : answer.headers,
      answer.body,
    );
    const answeredGuid = guidOfAnswer(answer.body);
    if (answeredGuid !== undefined) {
      if (lastAnswer !== undefined && lastAnswer.guid !== answeredGuid) answerBefore = lastAnswer;
      lastAnswer = { bytes, guid: answeredGuid };
    }
    // Every fault but dropped cookies keeps the client from this answer (a duplicate's stale answer
    // took its place; the real one, written after it, goes nowhere).
    record.answerLost = fault !== undefined && fault.kind !== 'drop_cookies';
    await deliver(socket, fault, bytes);
  }

  /** Sends the answer as the fault says. */
  async function deliver(socket: Socket, fault: Fault | undefined, bytes: Buffer): Promise<void> {
    switch (fault?.kind) {
      case 'status':
        socket.write(errorAnswer(fault.status, fault.retryAfter));
        return;
      case 'reset':
        if (fault.when === 'mid_answer') socket.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
        socket.resetAndDestroy();
        return;
      case 'truncated':
        socket.end(bytes.subarray(0, Math.floor(bytes.length / 2)));
        return;
      case 'invalid_json':
        socket.write(answerBytes(200, [['content-type', 'application/json']], '{"game_id": "half a frame'));
        return;
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (!socket.destroyed) socket.write(bytes);
        return;
      default:
        socket.write(bytes);
    }
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    lostAnswers: (filter = () => true) => requests.filter((r) => r.answerLost && filter(r)).length,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      agent.destroy();
      await once(server, 'close');
    },
  };
}

function errorAnswer(status: number, retryAfter: string | undefined): Buffer {
  const headers: Array<[string, string]> = [['content-type', status === 429 ? 'application/json' : 'text/html']];
  if (retryAfter !== undefined) headers.push(['retry-after', retryAfter]);
  const body = status === 429 ? '{"error":"RATE_LIMIT_EXCEEDED","message":"slow down (fault proxy)"}' : `<html><body>${status} (fault proxy)</body></html>`;
  return answerBytes(status, headers, body);
}

function guidOf(body: Buffer): string | undefined {
  try {
    const value = JSON.parse(body.toString('utf8')) as { guid?: unknown };
    return typeof value.guid === 'string' ? value.guid : undefined;
  } catch {
    return undefined;
  }
}

/** The `guid` of a frame answer, read without parsing its grids. */
function guidOfAnswer(body: Buffer): string | undefined {
  return /"guid":"([^"]+)"/.exec(body.subarray(0, 400).toString('latin1'))?.[1];
}
