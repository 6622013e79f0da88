/**
 * The journal of an episode's model calls beside its checkpoint (src/runfolder/callJournal.ts): what a
 * resume reads back of the calls a killed attempt made after its last checkpoint.
 */
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelCallRecord } from '../src/agent/usage.ts';
import { CallJournal, callJournalPath, readUnsettledCalls } from '../src/runfolder/callJournal.ts';

let dir: string;
let checkpoint: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-journal-'));
  checkpoint = join(dir, 'flod.gw.0.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function call(step: number, input: number): ModelCallRecord {
  return {
    step,
    model: 'm',
    kind: 'action',
    input_tokens: input,
    cached_input_tokens: 0,
    reasoning_tokens: 0,
    output_tokens: 1,
    cost_usd: 0.01,
    cached: false,
  };
}

describe('the call journal', () => {
  it('gives back the calls from the checkpoint count on, in order, a line cut short by a kill left out', () => {
    const journal = new CallJournal(checkpoint);
    for (let index = 0; index < 4; index++) journal.append(index, call(index, 10 + index));
    journal.close();
    appendFileSync(callJournalPath(checkpoint), '{"index":4,"call":{"step":4,"mod');
    expect(readUnsettledCalls(checkpoint, 2)).toEqual([call(2, 12), call(3, 13)]);
    expect(readUnsettledCalls(checkpoint, 4)).toEqual([]);
  });

  it('keeps one call per index and skips lines that are not calls', () => {
    const journal = new CallJournal(checkpoint);
    journal.append(0, call(0, 1));
    journal.close();
    appendFileSync(
      callJournalPath(checkpoint),
      `${JSON.stringify({ index: 1, call: { step: 1 } })}\nnot json\n${JSON.stringify({ index: 0, call: call(0, 1) })}\n`,
    );
    expect(readUnsettledCalls(checkpoint, 0)).toEqual([call(0, 1)]);
  });

  it('reads as no calls where there is no journal, and goes with remove()', () => {
    expect(readUnsettledCalls(checkpoint, 0)).toEqual([]);
    const journal = new CallJournal(checkpoint);
    journal.append(0, call(0, 1));
    journal.remove();
    expect(existsSync(callJournalPath(checkpoint))).toBe(false);
  });
});
