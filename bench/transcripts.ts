/**
 * Transcripts: an 80-action `text`-format episode as the llm agent keeps it, one model call a step: a
 * system prompt, the tools, and a conversation that grows by a turn a call (the turn's words, the
 * whole 64×64 grid as hex text — the worst case, no letterbox to crop — the model's tool call and the
 * tool's answer) until 16,000 tokens, where older turns are summarised (a compaction call) and the
 * last four kept. Frames are a real game's, played with its own actions. What the file takes on disk
 * (target: 1 MB), against what the calls would take each stored whole, and the time to write it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { gameCatalog } from '../src/games/catalog.ts';
import { TranscriptWriter } from '../src/runfolder/transcriptFile.ts';
import type { BenchFigure, BenchSuite } from './figure.ts';
import { median } from './measure.ts';
import { scratchFolder } from './scratch.ts';

const ACTIONS = 80;
const CONTEXT_CHARS = 16_000 * 4;
const KEPT_TURNS = 4;
const SYSTEM = `You play a turn-based puzzle game on a 64x64 grid. ${'Read the frame, think about what changed, and choose one action. '.repeat(12)}`;
const TOOLS = [1, 2, 3, 4, 5, 6, 0].map((id) => ({
  type: 'function',
  function: {
    name: id === 0 ? 'RESET' : `ACTION${id}`,
    description: `Send action ${id}.`,
    parameters: { type: 'object', properties: { rationale: { type: 'string' } } },
  },
}));

function gridText(grid: Uint8Array): string {
  const rows: string[] = [];
  for (let y = 0; y < 64; y++) rows.push(`${String(y).padEnd(2)} ${[...grid.subarray(y * 64, y * 64 + 64)].map((c) => c.toString(16)).join('')}`);
  return rows.join('\n');
}

/** The episode's frames: a built-in game played with its actions in turn. */
function frames(): Uint8Array[] {
  const game = gameCatalog().find((known) => known.info.slug === 'keys') ?? gameCatalog()[0]!;
  let play = game.start();
  const grids = [play.frame()];
  for (let i = 0; i < ACTIONS; i++) {
    const id = game.info.availableActions[i % game.info.availableActions.length]!;
    const result = play.step(id === 6 ? { id, x: (i * 7) % 64, y: (i * 13) % 64 } : { id });
    grids.push(result.frames.at(-1)!);
    if (result.outcome !== 'playing' && result.outcome !== 'level_completed') play = game.start();
  }
  return grids;
}

type Message = { role: string; content?: string; tool_calls?: unknown[]; tool_call_id?: string };

/** Writes the episode's transcript into `dir`; returns its path. */
async function writeEpisode(dir: string, grids: readonly Uint8Array[], name: string): Promise<{ path: string; wholeChars: number; writeMs: number }> {
  const path = join(dir, name);
  const file = new TranscriptWriter(path);
  // Only the writer's own work is timed, not the building of the conversation around it.
  let writeNs = 0n;
  const writer = {
    write(call: Parameters<TranscriptWriter['write']>[0]) {
      const started = process.hrtime.bigint();
      file.write(call);
      writeNs += process.hrtime.bigint() - started;
    },
  };
  let turns: Message[][] = [];
  let summary: Message | undefined;
  let wholeChars = 0;
  const usage = (kind: 'action' | 'compaction', step: number) => ({
    step,
    model: 'bench-model',
    kind,
    input_tokens: 9000,
    cached_input_tokens: 6000,
    reasoning_tokens: 0,
    output_tokens: 60,
    cost_usd: 0.02,
    cached: false,
  });
  for (let step = 0; step < ACTIONS; step++) {
    const turn: Message = { role: 'user', content: `Game: keys. Level 1 of 6. State: NOT_FINISHED. Actions used: ${step}.\nFrame:\n${gridText(grids[step]!)}` };
    let messages: Message[] = [{ role: 'system', content: SYSTEM }, ...(summary ? [summary] : []), ...turns.flat(), turn];
    if (JSON.stringify(messages).length > CONTEXT_CHARS) {
      const folded = turns.slice(0, -KEPT_TURNS).flat();
      writer.write({
        step,
        at: new Date().toISOString(),
        kind: 'compaction',
        model: 'bench-model',
        messages: [{ role: 'system', content: 'Summarise.' }, ...folded],
        instructions: null,
        tools: null,
        params: {},
        response: { content: 'Summary of earlier turns.' },
        usage: usage('compaction', step),
      });
      summary = { role: 'user', content: `Summary of turns so far (${step}).` };
      turns = turns.slice(-KEPT_TURNS);
      messages = [{ role: 'system', content: SYSTEM }, summary, ...turns.flat(), turn];
    }
    const toolCall = {
      id: `call_${step}`,
      type: 'function',
      function: { name: 'ACTION1', arguments: JSON.stringify({ rationale: `Step ${step}: moving toward the key.` }) },
    };
    writer.write({
      step,
      at: new Date().toISOString(),
      kind: 'action',
      model: 'bench-model',
      messages,
      instructions: null,
      tools: TOOLS,
      params: { temperature: 0 },
      response: { content: null, tool_calls: [toolCall] },
      usage: usage('action', step),
    });
    wholeChars += JSON.stringify({ messages, tools: TOOLS }).length;
    turns.push([turn, { role: 'assistant', tool_calls: [toolCall] }, { role: 'tool', tool_call_id: `call_${step}`, content: 'sent' }]);
  }
  const closing = process.hrtime.bigint();
  await file.close();
  writeNs += process.hrtime.bigint() - closing;
  return { path, wholeChars, writeMs: Number(writeNs) / 1e6 };
}

const suite: BenchSuite = {
  name: 'transcripts',
  async run(): Promise<BenchFigure[]> {
    const grids = frames();
    const dir = scratchFolder('transcripts');
    const times: number[] = [];
    let written = { path: '', wholeChars: 0, writeMs: 0 };
    for (let round = 0; round < 7; round++) {
      written = await writeEpisode(dir, grids, `episode-${round}.transcript.jsonl.gz`);
      times.push(written.writeMs);
    }
    const bytes = statSync(written.path).size;
    return [
      { figure: `transcript of an ${ACTIONS}-action text-format episode, on disk`, value: bytes / 1e3, unit: 'kB', target: { op: '<=', value: 1000 } },
      { figure: 'the same calls stored whole, uncompressed', value: written.wholeChars / 1e6, unit: 'MB', note: 'what each message stored once and gzip save' },
      { figure: `time to write the ${ACTIONS}-call transcript (median of 7)`, value: median(times), unit: 'ms' },
    ];
  },
};

export default suite;
