/**
 * A fake model server of ours in a process of its own, for the llm bench: the agent's time is then
 * measured without the fake's work on the same event loop. Run as `node bin/run-ts.js
 * bench/llmFakeProcess.ts --serve '<configuration JSON>'`; it prints its base URL on the first line,
 * answers a `stats` line on stdin with the milliseconds it spent answering, and stops on SIGTERM or when
 * its stdin closes (so a crashed parent leaves no server behind).
 *
 * The model plays a fixed walk (right, right, down, down, left, left, up, up), `batch` moves a reply,
 * each answer after `replyMs`; the Responses and Anthropic fakes add a reasoning item or thinking block.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropicServer } from '../test/support/fakeAnthropicServer.ts';
import { startFakeModelServer, toolCall } from '../test/support/fakeModelServer.ts';
import { startFakeResponsesServer } from '../test/support/fakeResponsesServer.ts';

export interface FakeConfiguration {
  readonly server: 'chat' | 'responses' | 'anthropic';
  readonly batch: number;
  readonly replyMs: number;
}

/** The fake model's moves, in turn; the bench's baseline agent plays the same walk. */
export const WALK = ['ACTION4', 'ACTION4', 'ACTION2', 'ACTION2', 'ACTION3', 'ACTION3', 'ACTION1', 'ACTION1'];
const REASONING = 'The crate moved with me last time, so I keep pushing it along the row towards the marked cell and watch the counter.';
const SUMMARY = 'ACTION1-4 move the player; pushing a crate moves it; the level ends when every crate is on a mark.';

async function startFake(configuration: FakeConfiguration) {
  let moves = 0;
  const answer = (hasTools: boolean) => {
    if (!hasTools) return { text: SUMMARY, delayMs: configuration.replyMs };
    const calls = Array.from({ length: configuration.batch }, (_, i) =>
      toolCall(WALK[(moves + i) % WALK.length]!, { rationale: 'follow the walk', expect_change: true }),
    );
    moves += configuration.batch;
    return { toolCalls: calls, delayMs: configuration.replyMs };
  };
  if (configuration.server === 'chat') {
    const server = await startFakeModelServer({ countTokens: true });
    server.setFallback((request) => answer(request.body.tools !== undefined));
    return server;
  }
  if (configuration.server === 'responses') {
    const server = await startFakeResponsesServer();
    server.setFallback((request) => ({ ...answer(request.body.tools !== undefined), reasoning: REASONING }));
    return server;
  }
  const server = await startFakeAnthropicServer();
  server.setFallback((request) => ({ ...answer(request.body.tools !== undefined), thinking: REASONING }));
  return server;
}

export interface FakeProcess {
  readonly baseUrl: string;
  /** Milliseconds the fake spent answering, summed over every request so far. */
  servingMs(): Promise<number>;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function startFakeProcess(configuration: FakeConfiguration): Promise<FakeProcess> {
  const child: ChildProcess = spawn(process.execPath, ['bin/run-ts.js', 'bench/llmFakeProcess.ts', '--serve', JSON.stringify(configuration)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => String((await lines.next()).value);
  const baseUrl = await next();
  return {
    baseUrl,
    async servingMs() {
      child.stdin!.write('stats\n');
      return Number(await next());
    },
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv.includes('--serve') && process.argv[1] === fileURLToPath(import.meta.url)) {
  const configuration = JSON.parse(process.argv[process.argv.indexOf('--serve') + 1]!) as FakeConfiguration;
  const server = await startFake(configuration);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  const input = createInterface({ input: process.stdin });
  input.on('line', () => console.log(server.handlingMs.reduce((sum, ms) => sum + ms, 0)));
  input.on('close', stop);
  console.log(server.baseUrl);
}
