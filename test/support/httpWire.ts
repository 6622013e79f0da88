/**
 * HTTP/1.1 at the byte level, for test servers and the fault proxy that must do what a well-behaved
 * server never does (answer twice, cut an answer, answer out of turn): requests read off a socket one by
 * one, answers written as raw bytes. Only what our clients send is understood: a request line, headers,
 * and a body of Content-Length bytes.
 */
import type { Socket } from 'node:net';

export interface WireRequest {
  method: string;
  /** Path and query, as on the request line. */
  path: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** Calls `onRequest` for each request arriving on the socket, in order. */
export function readRequests(socket: Socket, onRequest: (request: WireRequest) => void): void {
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const headEnd = pending.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const lines = pending.subarray(0, headEnd).toString('latin1').split('\r\n');
      const [method = '', path = ''] = (lines[0] ?? '').split(' ');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      const length = Number(headers['content-length'] ?? 0);
      if (pending.length < headEnd + 4 + length) return;
      const body = Buffer.from(pending.subarray(headEnd + 4, headEnd + 4 + length));
      pending = pending.subarray(headEnd + 4 + length);
      onRequest({ method, path, headers, body });
    }
  });
}

/** An answer as raw bytes: status line, headers (a header may repeat, e.g. set-cookie), Content-Length, body. */
export function answerBytes(status: number, headers: ReadonlyArray<[string, string]>, body: Buffer | string): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  const head = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Status'}`,
    ...headers.filter(([name]) => name.toLowerCase() !== 'content-length').map(([name, value]) => `${name}: ${value}`),
    `content-length: ${payload.length}`,
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A 64×64 grid of zeros as the wire's rows. */
export const BLANK_ROWS: number[][] = Array.from({ length: 64 }, () => new Array<number>(64).fill(0));

/** The JSON of a frame answer naming `guid`, `gameId` and action `actionId`, one blank grid. */
export function frameJson(gameId: string, guid: string, actionId: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    game_id: gameId,
    guid,
    frame: [BLANK_ROWS],
    state: 'NOT_FINISHED',
    levels_completed: 0,
    win_levels: 1,
    action_input: { id: actionId, data: actionId === 0 ? {} : { game_id: gameId } },
    available_actions: [1, 2, 3, 4],
    full_reset: actionId === 0,
    ...extra,
  });
}
