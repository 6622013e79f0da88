/**
 * `arcbench serve`: the reference service over HTTP, for clients and agents in other processes or
 * languages, and for testing HttpTransport against backends behind an affinity cookie. Prints its URL
 * alone on one stdout line (scripts read it); logs go to stderr.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { LevelWithSilent } from 'pino';
import { createServeLogger, DEFAULT_CONNECTION_LIMITS, DIALECTS, KeysError, loadKeysFile, parseKeys, startServer } from '../reference/server/index.ts';
import type { Dialect } from '../reference/server/index.ts';
import type { UserIdentity } from '../reference/referenceService.ts';
import { HOSTED_RATE_LIMIT_PER_MINUTE } from '../protocol/limits.ts';
import { EXIT_FAILED, EXIT_USAGE, integerOption } from './commandSupport.ts';
import { durationMs } from './duration.ts';
import { type GamesDirOptions, gameHostsOption, gamesDirOption, loadGamesDirOrExit } from './gamesDir.ts';
import type { OfficialGames } from '../games/official/index.ts';

interface ServeOptions extends GamesDirOptions {
  port: number;
  host: string;
  keys?: string;
  backends: number;
  rotateAffinity?: number;
  rateLimit?: number;
  inject429Every?: number;
  idleClose?: number;
  retainClosed?: number;
  affinityGrace?: number;
  dialect: Dialect;
  competition?: boolean;
  idleTimeout?: number;
  headersTimeout?: number;
  requestTimeout?: number;
  maxConnections?: number;
  seed?: number;
  logLevel: LevelWithSilent;
}

export const KEYS_ENV = 'ARCBENCH_KEYS';

/** Over 60 lines on purpose: one line per flag of the command, where commander reads them. */
export function register(program: Command): void {
  program
    .command('serve')
    .description('Run the reference game service over HTTP (prints its URL on stdout; logs go to stderr).')
    .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').default(8001).argParser(integerOption('--port', 0, 65535)))
    .addOption(new Option('--host <host>', 'interface to listen on; 0.0.0.0 exposes the server to the network').default('127.0.0.1'))
    .addOption(
      new Option(
        '--keys <file>',
        `accepted API keys: lines "KEY user_name [user_id]" or a JSON object {"KEY": {"user_name": ..., "user_id": ...}}; also ${KEYS_ENV} (same formats, commas between entries); without keys any non-empty key is accepted`,
      ),
    )
    .addOption(
      new Option('--backends <n>', 'independent backends behind an AWSALB affinity cookie, as the hosted service runs')
        .default(1)
        .argParser(integerOption('--backends', 1, 64)),
    )
    .addOption(
      new Option('--rotate-affinity <k>', 're-issue the affinity cookie with a new value every K responses, to test that clients keep the newest').argParser(
        integerOption('--rotate-affinity', 1, 1_000_000),
      ),
    )
    .addOption(
      new Option(
        '--rate-limit <n>',
        `requests per minute per key; beyond it 429 with Retry-After (the hosted service allows ${HOSTED_RATE_LIMIT_PER_MINUTE})`,
      ).argParser(integerOption('--rate-limit', 1, 10_000_000)),
    )
    .addOption(
      new Option('--inject-429-every <n>', 'answer every Nth request with 429 and Retry-After: 0, to test client retries').argParser(
        integerOption('--inject-429-every', 1, 1_000_000),
      ),
    )
    .addOption(
      new Option(
        '--affinity-grace <duration>',
        'how long a superseded affinity cookie value still routes (default 24h, as the hosted balancer; 0: only the last 64 values)',
      ).argParser(durationMs('--affinity-grace', true)),
    )
    .addOption(
      new Option(
        '--dialect <name>',
        "answer as arcbench (the full API) or as the official toolkit's reference server (no baselines, sparse cards, per-game plays, closed cards gone, full_reset always false, any key)",
      )
        .choices([...DIALECTS])
        .default('arcbench'),
    )
    .addOption(
      new Option(
        '--competition',
        "with --dialect toolkit: as the toolkit's server in competition mode, as Kaggle's gateway runs it (every card a competition card, one card in the server's life)",
      ),
    )
    .addOption(
      new Option('--idle-close <minutes>', 'close a scorecard after this many minutes without a counted action (default 15)').argParser(
        positiveNumber('--idle-close'),
      ),
    )
    .addOption(
      new Option('--retain-closed <duration>', 'keep a closed scorecard readable this long, then forget it (default 24h)').argParser(
        durationMs('--retain-closed'),
      ),
    )
    .addOption(
      new Option(
        '--idle-timeout <duration>',
        `close a keep-alive connection idle this long (default ${DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs / 1000}s)`,
      ).argParser(durationMs('--idle-timeout')),
    )
    .addOption(
      new Option(
        '--headers-timeout <duration>',
        `drop a request whose headers have not arrived within this (default ${DEFAULT_CONNECTION_LIMITS.headersTimeoutMs / 1000}s)`,
      ).argParser(durationMs('--headers-timeout')),
    )
    .addOption(
      new Option(
        '--request-timeout <duration>',
        `drop a request that has not fully arrived within this (default ${DEFAULT_CONNECTION_LIMITS.requestTimeoutMs / 1000}s)`,
      ).argParser(durationMs('--request-timeout')),
    )
    .addOption(
      new Option(
        '--max-connections <n>',
        `connections open at once; more are closed as they come (default ${DEFAULT_CONNECTION_LIMITS.maxConnections})`,
      ).argParser(integerOption('--max-connections', 1, 1_000_000)),
    )
    .addOption(
      new Option('--seed <n>', 'seed of card and session ids, for reproducible runs (default: random)').argParser(integerOption('--seed', 0, 2 ** 31 - 1)),
    )
    .addOption(
      new Option('--log-level <level>', 'how much to log on stderr').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    )
    .addOption(gamesDirOption())
    .addOption(gameHostsOption())
    .addHelpText(
      'after',
      '\nPrints its URL alone on one stdout line. Exit codes: 0 stopped with Ctrl+C or SIGTERM; 1 cannot listen; 2 a port in use, or bad usage.',
    )
    .action(async (options: ServeOptions) => {
      await serve(options);
    });
}

async function serve(options: ServeOptions): Promise<void> {
  let keys: ReadonlyMap<string, UserIdentity> | undefined;
  try {
    keys = readKeys(options.keys);
  } catch (error) {
    if (!(error instanceof KeysError)) throw error;
    process.stderr.write(`arcbench serve: ${error.message}\n`);
    process.exit(2);
  }

  const headersMs = options.headersTimeout ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs;
  const requestMs = options.requestTimeout ?? DEFAULT_CONNECTION_LIMITS.requestTimeoutMs;
  if (headersMs > requestMs) {
    process.stderr.write(
      `arcbench serve: --headers-timeout (${headersMs / 1000}s) must not exceed --request-timeout (${requestMs / 1000}s): the headers are part of the request; raise --request-timeout too\n`,
    );
    process.exit(2);
  }
  if (options.competition && options.dialect !== 'toolkit') {
    process.stderr.write(
      "arcbench serve: --competition is the toolkit server's competition mode; add --dialect toolkit (competition cards of the full API need no flag: open them with competition_mode: true)\n",
    );
    process.exit(2);
  }

  const official = await loadGamesDirOrExit('serve', options);
  const logger = createServeLogger(options.logLevel, process.stderr);
  const server = await listenOrExit(options, keys, logger, official);
  logger.info({ url: server.url, backends: options.backends, dialect: options.dialect, keys: keys?.size ?? 'any' }, 'serving');
  // The URL alone on stdout, as `view` prints its own: a script reads it with one line and no parsing.
  process.stdout.write(`${server.url}\n`);
  process.stderr.write(`arcbench serve: listening on ${server.url} (Ctrl+C to stop)\n`);

  stopOnSignals(server, logger);
}

type RunningServer = Awaited<ReturnType<typeof startServer>>;

/**
 * Starts the server, or exits with a sentence: 2 for settings that cannot work together and for a port
 * in use (the user's to change, and `view`'s code for it too), 1 when it cannot listen for another reason.
 */
async function listenOrExit(
  options: ServeOptions,
  keys: ReadonlyMap<string, UserIdentity> | undefined,
  logger: ReturnType<typeof createServeLogger>,
  official: OfficialGames | undefined,
): Promise<RunningServer> {
  try {
    return await startServer({
      host: options.host,
      port: options.port,
      backendCount: options.backends,
      serviceOptions: {
        ...(options.idleClose !== undefined ? { idleCloseMs: Math.round(options.idleClose * 60_000) } : {}),
        ...(options.retainClosed !== undefined ? { closedRetentionMs: options.retainClosed } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(official === undefined ? {} : { games: official.games }),
      },
      keys,
      dialect: options.dialect,
      competition: options.competition,
      rotateAffinity: options.rotateAffinity,
      affinityGraceMs: options.affinityGrace,
      keepAliveTimeoutMs: options.idleTimeout,
      headersTimeoutMs: options.headersTimeout,
      requestTimeoutMs: options.requestTimeout,
      maxConnections: options.maxConnections,
      rateLimitPerMinute: options.rateLimit,
      inject429Every: options.inject429Every,
      logger,
    });
  } catch (error) {
    if (error instanceof RangeError) {
      // Settings that cannot work together, found by the server's own checks.
      process.stderr.write(`arcbench serve: ${error.message}\n`);
      process.exit(2);
    }
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const reason = inUse ? 'the port is in use; pick another --port (0: any free one)' : (error as Error).message;
    process.stderr.write(`arcbench serve: cannot listen on ${options.host}:${options.port}: ${reason}\n`);
    process.exit(inUse ? EXIT_USAGE : EXIT_FAILED);
  }
}

/** The first SIGINT or SIGTERM finishes in-flight requests and exits; a second one exits at once. */
function stopOnSignals(server: RunningServer, logger: ReturnType<typeof createServeLogger>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal means "now": skip waiting for in-flight requests.
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Keys from --keys, else from ARCBENCH_KEYS, else none (any key accepted). */
function readKeys(file: string | undefined): ReadonlyMap<string, UserIdentity> | undefined {
  if (file !== undefined) return loadKeysFile(file);
  const inline = process.env[KEYS_ENV];
  if (inline !== undefined && inline.trim() !== '') return parseKeys(inline, KEYS_ENV, true);
  return undefined;
}

function positiveNumber(flag: string) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`${flag} takes a positive number, got "${text}".`);
    return value;
  };
}
