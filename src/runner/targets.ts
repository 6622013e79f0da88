/**
 * Opens the experiment's target as a Transport: the reference service in this process, our HTTP server
 * started on loopback for the run, or any service URL. Only this file knows which; everything after
 * it speaks the one Transport interface.
 */
import { InProcessTransport } from '../client/inProcessTransport.ts';
import type { TransportLogger } from '../client/httpTransport.ts';
import type { Transport } from '../client/transport.ts';
import type { AnyGame } from '../games/types.ts';
import { ReferenceService } from '../reference/referenceService.ts';
import { ConfigError } from './config/loader.ts';
import { rateBudget, shareOfBudget } from './rateBudget.ts';
import type { Shard } from './shard.ts';
import type { ExperimentConfig } from './config/schema.ts';

export interface OpenTarget {
  readonly transport: Transport;
  /** `in-process`, `server on http://127.0.0.1:…`, or the URL. */
  readonly description: string;
  /** Root of the service's scorecard pages (`<root>/scorecards/<card_id>`): a URL target's, or the config's. */
  readonly pageRoot: string | undefined;
  /** Whether `pageRoot` is only assumed (a service URL's own) and must be checked to serve pages (scorecardPageCheck.ts). */
  readonly checkPages?: boolean;
  /** Closes the transport and, for a started server, the server. */
  close(): Promise<void>;
}

/** The key our own services see; any non-empty key is accepted by them. */
export const LOCAL_KEY = 'arcbench-local';

/**
 * The in-process reference; seeded so ids (guids, card ids) repeat with the run seed (unseeded: ids from
 * the OS). `games`: what it offers instead of our own (the official games of a games_dir).
 */
export function referenceTransport(seed: number | undefined, games?: readonly AnyGame[]): InProcessTransport {
  return new InProcessTransport(new ReferenceService({ seed, ...(games === undefined ? {} : { games }) }), { key: LOCAL_KEY });
}

/** The games our own services offer for this experiment: games_dir's official games, or (undefined) our own. */
export interface TargetGames {
  readonly games: readonly AnyGame[] | undefined;
  close(): void;
}

/**
 * Loads games_dir's official games on a pool of game_hosts Python hosts: a missing arcengine, a game that
 * does not import or a malformed metadata.json stops here, before anything is played.
 */
export async function openTargetGames(config: ExperimentConfig): Promise<TargetGames> {
  if (config.games_dir === undefined) return { games: undefined, close: () => {} };
  if (typeof config.target === 'object' && 'url' in config.target) {
    throw new ConfigError(
      'games_dir: the official games are played on our own service (target: reference, or target: { server: … }); a service URL offers its own games, so remove games_dir or the url',
    );
  }
  const { loadOfficialGames } = await import('../games/official/index.ts');
  const official = await loadOfficialGames(config.games_dir, config.game_hosts === undefined ? {} : { hosts: config.game_hosts });
  return { games: official.games, close: () => official.close() };
}

/** The HttpTransport options an experiment asks for (timeouts, retries, rate limit, connections). */
export function httpOptions(config: ExperimentConfig) {
  return {
    ...(config.timeouts?.connect_ms === undefined ? {} : { connectTimeoutMs: config.timeouts.connect_ms }),
    ...(config.timeouts?.request_ms === undefined ? {} : { requestTimeoutMs: config.timeouts.request_ms }),
    ...(config.timeouts?.max_retries === undefined ? {} : { maxRetries: config.timeouts.max_retries }),
    ...(config.rate_limit === undefined
      ? {}
      : { rateLimit: config.rate_limit === false ? (false as const) : { requests: config.rate_limit.requests, intervalMs: config.rate_limit.interval_ms } }),
    // One connection per episode in flight, so the scheduler and not the pool decides concurrency.
    connections: Math.max(1, Math.min(config.concurrency, 64)),
  };
}

/**
 * The seed of the ids our own services hand out. A resumed run's service is a new one: with the run
 * seed again it would hand out the very card ids and guids of the attempt before, and two cards (or
 * two recordings) of one run folder would share a name.
 */
function serviceSeed(seed: number, attempt: number, shard: Shard | undefined): number {
  const ofAttempt = attempt === 1 ? seed : (seed ^ Math.imul(attempt, 0x9e3779b1)) >>> 0;
  // The shards of a run are merged into one folder later: their cards and recordings must not share names either.
  return shard === undefined ? ofAttempt : (ofAttempt ^ Math.imul(shard.index + 1, 0x85ebca6b)) >>> 0;
}

/**
 * `attempt`: 1 for a new run, one more per resume of it. `shard`: the part of the plan this run plays;
 * against a service URL it plays with that part's share of the request budget, since the shards of a
 * matrix run side by side on one API key. `log`: where an HTTP transport's warnings go (the run's log,
 * once it exists).
 */
export async function openTarget(config: ExperimentConfig, attempt = 1, shard?: Shard, log?: TransportLogger): Promise<OpenTarget> {
  const games = await openTargetGames(config);
  const opened = await openTransport(config, games.games, serviceSeed(config.seed, attempt, shard), shard, log).catch((error: unknown) => {
    games.close();
    throw error;
  });
  if (games.games === undefined) return opened;
  const where = `${games.games.length} official game(s) of ${config.games_dir}`;
  return {
    ...opened,
    description: `${opened.description}, ${where}`,
    close: async () => {
      await opened.close();
      games.close();
    },
  };
}

async function openTransport(
  config: ExperimentConfig,
  games: readonly AnyGame[] | undefined,
  seed: number,
  shard: Shard | undefined,
  log: TransportLogger | undefined,
): Promise<OpenTarget> {
  const target = config.target;
  if (target === 'reference') {
    const transport = referenceTransport(seed, games);
    return { transport, description: 'in-process', pageRoot: config.scorecard.page_root, close: () => transport.close() };
  }
  // HTTP pieces load only when a run needs them: agents import this package's entry, and should not
  // pay for an HTTP server and client they never use.
  const { HttpTransport } = await import('../client/httpTransport.ts');
  if ('server' in target) {
    const { startServer } = await import('../reference/server/index.ts');
    const { backends, rotate_affinity, rate_limit_per_minute, inject_429_every, dialect } = target.server;
    const server = await startServer({
      backendCount: backends,
      dialect,
      serviceOptions: { seed, ...(games === undefined ? {} : { games }) },
      ...(rotate_affinity === false ? {} : { rotateAffinity: rotate_affinity === true ? 1 : rotate_affinity }),
      ...(rate_limit_per_minute === undefined ? {} : { rateLimitPerMinute: rate_limit_per_minute }),
      ...(inject_429_every === undefined ? {} : { inject429Every: inject_429_every }),
      logger: false,
      port: 0,
    });
    const transport = new HttpTransport({ baseUrl: server.url, apiKey: LOCAL_KEY, ...httpOptions(config), ...(log ? { logger: log } : {}) });
    return {
      transport,
      description: `server on ${server.url} (${backends} backend${backends === 1 ? '' : 's'}${dialect === 'toolkit' ? ', toolkit dialect' : ''})`,
      pageRoot: config.scorecard.page_root,
      close: async () => {
        await transport.close();
        await server.close();
      },
    };
  }
  const budget = shard === undefined ? undefined : rateBudget(config, target.url);
  const shared = budget === undefined ? {} : { rateLimit: budget === false ? budget : shareOfBudget(budget, shard!.count) };
  const transport = new HttpTransport({ baseUrl: target.url, apiKey: target.api_key, ...httpOptions(config), ...shared, ...(log ? { logger: log } : {}) });
  return {
    transport,
    description: transport.target,
    pageRoot: config.scorecard.page_root ?? transport.target,
    checkPages: config.scorecard.page_root === undefined,
    close: () => transport.close(),
  };
}

/** Why a target's sessions cannot outlive the process that played them (its own service), or undefined for a service URL. */
export function sessionsEndWithProcess(target: ExperimentConfig['target']): string | undefined {
  if (target === 'reference') return "its session lived in the in-process service, which ended with its attempt's process";
  if ('server' in target) return "its session lived in the server its attempt started, which ended with that attempt's process";
  return undefined;
}
