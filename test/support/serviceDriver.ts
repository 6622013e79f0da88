/**
 * One way to reach a ReferenceService per transport, behind one interface, so the conformance suite
 * runs unchanged in-process and over HTTP. Every call resolves to what a client would see: a status
 * and a JSON body (errors as `{error, message}`), never a thrown ApiError.
 *
 * Keys: `undefined` sends DEFAULT_TEST_KEY, `null` sends no key at all, a string sends that key.
 * Frame bodies: `frame` may hold Uint8Array grids (library) or 64 rows of 64 numbers (HTTP, undecoded);
 * the suite reads both through gridsOf().
 */
import { isApiError } from '../../src/protocol/index.ts';
import type { ActionName } from '../../src/protocol/index.ts';
import type { ReferenceService } from '../../src/reference/index.ts';

export const DEFAULT_TEST_KEY = 'conformance-key-1';

/** A key argument: undefined for the default key, null for none. */
export type DriverKey = string | null | undefined;

export interface DriverResponse {
  status: number;
  body: any;
  headers?: Record<string, string>;
  /** The body as sent, where a wire carried it. */
  text?: string;
}

export interface ServiceDriver {
  /** GET /api/games */
  games(key?: DriverKey): Promise<DriverResponse>;
  /** GET /api/games/{id} */
  game(id: string, key?: DriverKey): Promise<DriverResponse>;
  /** POST /api/scorecard/open */
  open(body: unknown, key?: DriverKey): Promise<DriverResponse>;
  /** POST /api/scorecard/close */
  close(body: unknown, key?: DriverKey): Promise<DriverResponse>;
  /** GET /api/scorecard/{id}[/{gameId}] */
  card(id: string, gameId?: string, key?: DriverKey): Promise<DriverResponse>;
  /** POST /api/cmd/{name}; a name that is no command is an unknown path. */
  command(name: string, body: unknown, key?: DriverKey): Promise<DriverResponse>;
  /** GET /scorecards/{id}, the card's page, where a driver has a wire (the library has no pages). */
  page?(id: string): Promise<DriverResponse>;
}

/** The key a driver should send for a DriverKey, or undefined for no key. */
export function resolveKey(key: DriverKey): string | undefined {
  return key === undefined ? DEFAULT_TEST_KEY : key === null ? undefined : key;
}

/** Calls the service in-process; bodies go through a JSON round trip as they would on the wire. */
export function createLibraryDriver(service: ReferenceService): ServiceDriver {
  return {
    games: async (key) => answer(() => service.listGames(resolveKey(key))),
    game: async (id, key) => answer(() => service.getGame(resolveKey(key), id)),
    open: async (body, key) => answer(() => service.openScorecard(resolveKey(key), wireCopy(body))),
    close: async (body, key) => answer(() => service.closeScorecard(resolveKey(key), wireCopy(body))),
    card: async (id, gameId, key) => answer(() => service.getScorecard(resolveKey(key), id, gameId)),
    command: async (name, body, key) =>
      answer(() => {
        const frame = service.command(resolveKey(key), name as ActionName, wireCopy(body));
        // Grids stay Uint8Arrays (as in-process callers get them); everything else as JSON would carry it.
        return { ...(jsonCopy({ ...frame, frame: undefined }) as object), frame: frame.frame };
      }, false),
  };
}

function answer(call: () => unknown, roundTrip = true): DriverResponse {
  try {
    const value = call();
    return { status: 200, body: roundTrip ? jsonCopy(value) : value };
  } catch (error) {
    if (isApiError(error)) {
      const headers: Record<string, string> = {};
      if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
      return { status: error.status, body: error.toBody(), headers };
    }
    // What an HTTP server would answer for an unexpected throw; the suite treats any 5xx as a failure.
    return { status: 500, body: { error: 'SERVER_ERROR', message: (error as Error)?.message ?? String(error) } };
  }
}

/** A body as a JSON client could send it; values JSON cannot carry are passed through unchanged. */
function wireCopy(body: unknown): unknown {
  if (body === undefined) return undefined;
  try {
    return jsonCopy(body);
  } catch {
    return body;
  }
}

function jsonCopy(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}
