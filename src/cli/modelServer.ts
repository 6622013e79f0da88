/**
 * `arcbench model-server`: a scripted model provider on 127.0.0.1, to try the llm agent with no key
 * and no bill, and to test an agent's plumbing in CI. It speaks OpenAI's Chat Completions and
 * Responses APIs and Anthropic's Messages API, answers scripted replies (--replies) or a seeded random
 * walk over the actions the request's tools offer, and declares the usage it is told to, so token and
 * dollar figures come out exactly as declared. configs/llm-offline.yaml points the llm agent at it.
 * Prints its origin alone on one stdout line (scripts read it); each call is logged on stderr.
 */
import { type Command, Option } from 'commander';
import { EXIT_USAGE, integerOption } from './commandSupport.ts';

interface ModelServerFlags {
  port: number;
  replies?: string;
  seed: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  quiet?: boolean;
}

export const DEFAULT_MODEL_SERVER_PORT = 8765;
const MAX_TOKENS = 100_000_000;

export function register(program: Command): void {
  const tokens = (flag: string) => integerOption(flag, 0, MAX_TOKENS);
  program
    .command('model-server')
    .description('Serve a scripted model on 127.0.0.1 (Chat Completions, Responses, Anthropic Messages) to try llm configs offline, at declared token counts.')
    .addOption(new Option('--port <n>', 'port on 127.0.0.1 (0: any free port)').default(DEFAULT_MODEL_SERVER_PORT).argParser(integerOption('--port', 0, 65535)))
    .addOption(new Option('--replies <file>', 'YAML or JSON list of replies, answered in order and again from the top; without it, a random walk'))
    .addOption(new Option('--seed <n>', 'seed of the random walk').default(1).argParser(integerOption('--seed', 0, 0xffffffff)))
    .addOption(new Option('--input-tokens <n>', 'input tokens each call declares').default(1000).argParser(tokens('--input-tokens')))
    .addOption(new Option('--cached-tokens <n>', 'of which served from a prompt cache').default(0).argParser(tokens('--cached-tokens')))
    .addOption(new Option('--output-tokens <n>', 'output tokens each call declares').default(100).argParser(tokens('--output-tokens')))
    .addOption(new Option('--quiet', 'no line on stderr per call'))
    .addHelpText(
      'after',
      '\nbase_url for the llm agent: http://127.0.0.1:PORT/v1 (api: chat or responses), http://127.0.0.1:PORT (api: anthropic); any api_key.' +
        '\nA reply in --replies: `- tool: ACTION6` with `arguments: { x: 3, y: 4 }`, or `- text: …`; each may declare its own' +
        '\n`usage: { input_tokens: 2000, cached_input_tokens: 0, output_tokens: 50 }` (docs/llm-agents.md).' +
        '\nExit codes: 0 stopped with Ctrl+C or SIGTERM; 2 a port in use, a bad replies file, or bad usage.',
    )
    .action(async (flags: ModelServerFlags) => {
      const code = await modelServer(flags);
      if (code !== undefined) process.exit(code);
    });
}

/** Serves until a signal; returns an exit code only when it could not start. */
async function modelServer(flags: ModelServerFlags): Promise<number | undefined> {
  if (flags.cachedTokens > flags.inputTokens) {
    process.stderr.write(
      `arcbench model-server: --cached-tokens (${flags.cachedTokens}) is a part of --input-tokens (${flags.inputTokens}): give at most that\n`,
    );
    return EXIT_USAGE;
  }
  // Loaded when the command runs, not when the CLI lists its commands.
  const { loadReplies, RepliesFileError } = await import('./modelServer/replies.ts');
  const { startModelServer } = await import('./modelServer/server.ts');
  let replies: ReturnType<typeof loadReplies> | undefined;
  try {
    replies = flags.replies === undefined ? undefined : loadReplies(flags.replies);
  } catch (error) {
    if (!(error instanceof RepliesFileError)) throw error;
    process.stderr.write(`arcbench model-server: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const usage = { input_tokens: flags.inputTokens, cached_input_tokens: flags.cachedTokens, output_tokens: flags.outputTokens };
  const log = flags.quiet ? undefined : (line: string) => process.stderr.write(`arcbench model-server: ${line}\n`);
  let server: Awaited<ReturnType<typeof startModelServer>>;
  try {
    server = await startModelServer({ host: '127.0.0.1', port: flags.port, seed: flags.seed, usage, ...(replies ? { replies } : {}), ...(log ? { log } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
    process.stderr.write(`arcbench model-server: cannot listen on 127.0.0.1:${flags.port} (${code}); choose another with --port\n`);
    return EXIT_USAGE;
  }
  process.stdout.write(`${server.origin}\n`);
  const how =
    replies === undefined ? `a random walk (seed ${flags.seed})` : `${replies.length} scripted repl${replies.length === 1 ? 'y' : 'ies'} from ${flags.replies}`;
  process.stderr.write(
    `arcbench model-server: answering with ${how}; base_url ${server.origin}/v1 (api: chat, responses) or ${server.origin} (api: anthropic); Ctrl+C stops it\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return undefined;
}
