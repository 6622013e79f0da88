/**
 * The server alone under load: autocannon (in this process) against our server (in its own process)
 * on POST /api/cmd/ACTION1..4, each of 32 connections playing one Crate Yard session opened
 * beforehand, with a RESET of its session when a level is lost (a few percent of the requests).
 */
import { createRequire } from 'node:module';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { startServerProcess } from './serverProcess.ts';

const SESSIONS = 32;
const SECONDS = 6;
const KEY = 'arcbench-bench';
const GAME = 'crat';

interface AutocannonRequest {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon is CommonJS without bundled types; the shapes above are the part used here.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

async function post(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`bench server: ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * Requests go round the sessions; a session seen lost (the answer that loses it, or the refusal of an
 * action on it) gets a RESET next. autocannon clears its per-request context on every request, so the
 * lost sessions are kept here, found by the guid every answer carries.
 */
async function load(url: string, guids: string[], gameId: string, seconds: number): Promise<AutocannonResult & { resets: number }> {
  let sent = 0;
  let resets = 0;
  const lost = new Set<string>();
  const result = await autocannon({
    url,
    connections: SESSIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        setupRequest(request: AutocannonRequest): AutocannonRequest {
          const n = sent++;
          const guid = guids[n % guids.length]!;
          if (lost.delete(guid)) {
            resets++;
            return { ...request, path: '/api/cmd/RESET', body: JSON.stringify({ game_id: gameId, guid }) };
          }
          return { ...request, path: `/api/cmd/ACTION${(Math.floor(n / guids.length) % 4) + 1}`, body: JSON.stringify({ game_id: gameId, guid }) };
        },
        onResponse(_status: number, body: string): void {
          if (body.includes('GAME_OVER')) {
            const guid = GUID.exec(body)?.[0];
            if (guid !== undefined) lost.add(guid);
          }
        },
      },
    ],
  });
  return { ...result, resets };
}

const suite: BenchSuite = {
  name: 'server',
  async run(): Promise<BenchFigure[]> {
    const server = await startServerProcess();
    try {
      const cardId = (await post(server.url, '/api/scorecard/open', { tags: ['bench'] })).card_id as string;
      const guids: string[] = [];
      let gameId = GAME;
      for (let i = 0; i < SESSIONS; i++) {
        const frame = await post(server.url, '/api/cmd/RESET', { game_id: GAME, card_id: cardId });
        guids.push(frame.guid as string);
        gameId = frame.game_id as string;
      }
      await load(server.url, guids, gameId, 1); // warm-up: the server's JIT
      const result = await load(server.url, guids, gameId, SECONDS);
      // A non-2xx here is the server being right: an action still in flight when another request lost
      // its session is refused with 400 GAME_NOT_STARTED. Errors and timeouts are real failures.
      const failed = result.errors + result.timeouts;
      const note =
        `autocannon, ${SESSIONS} connections, ${SECONDS} s, ${result.requests.total.toLocaleString('en-US')} requests ` +
        `(${result.resets} RESETs after GAME_OVER, ${result.non2xx} refused as sent to a session already lost)` +
        `${failed > 0 ? `, ${failed} FAILED` : ''}; server in its own process`;
      return [
        { figure: 'server alone, POST /api/cmd/ACTION1..4', value: result.requests.average, unit: 'requests/s', note },
        { figure: 'server alone, latency p50', value: result.latency.p50, unit: 'ms' },
        { figure: 'server alone, latency p99', value: result.latency.p99, unit: 'ms' },
      ];
    } finally {
      await server.stop();
    }
  },
};
export default suite;
