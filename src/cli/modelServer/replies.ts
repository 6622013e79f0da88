/**
 * The scripted replies of `arcbench model-server --replies FILE`: a YAML or JSON list, answered one a
 * call in order, from the top again once the list is spent (a script is a loop a CI job can count on).
 * Each reply names tool calls or a text, and may declare its own usage (else the server's --*-tokens):
 *
 *   - tool: ACTION1                   # one tool call; `arguments` as the tool takes them
 *   - tool: ACTION6
 *     arguments: { x: 3, y: 4 }
 *   - text: "I will move right."      # a text reply (no tool call)
 *     usage: { input_tokens: 2000, cached_input_tokens: 1500, output_tokens: 40 }
 *   - tools: [{ tool: ACTION1 }, { tool: ACTION2 }]   # several calls in one reply
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { ArcbenchError } from '../../errors.ts';
import { ISSUE_OPTIONS, issueLines } from '../../protocol/zodIssues.ts';

const count = z.int().min(0);
const usage = z.strictObject({ input_tokens: count, cached_input_tokens: count.default(0), output_tokens: count });
const call = z.strictObject({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) });
const reply = z
  .strictObject({
    tool: z.string().min(1).optional(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    tools: z.array(call).min(1).optional(),
    text: z.string().optional(),
    usage: usage.optional(),
  })
  .refine((r) => r.tool !== undefined || r.tools !== undefined || r.text !== undefined, {
    error: 'a reply needs `tool` (a tool call), `tools` (several) or `text`',
  })
  .refine((r) => r.tool === undefined || r.tools === undefined, { error: 'give either `tool` or `tools`, not both' });
const repliesSchema = z.array(reply).min(1, { error: 'the file holds no reply: write a list, e.g. - tool: ACTION1' });

export type ScriptedReply = z.output<typeof reply>;

export class RepliesFileError extends ArcbenchError {
  constructor(message: string) {
    super('MODEL_SERVER_REPLIES', message);
  }
}

export function loadReplies(file: string): ScriptedReply[] {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0];
    throw new RepliesFileError(`${file}: cannot read the replies file (${why}); give a YAML or JSON list of replies`);
  }
  const parsed = repliesSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success)
    throw new RepliesFileError(
      issueLines(parsed.error.issues)
        .map((line) => `${file}: ${line}`)
        .join('\n'),
    );
  return parsed.data;
}
