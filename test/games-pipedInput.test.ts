/** Piped input of `play`: command lines and key lines, whatever the chunking of the pipe. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PipedInputReader } from '../src/cli/play/pipedInput.ts';
import type { TerminalCommand } from '../src/cli/play/terminalKeys.ts';

function readAll(chunks: readonly string[]): TerminalCommand[] {
  const reader = new PipedInputReader();
  return [...chunks.flatMap((chunk) => reader.feed(chunk)), ...reader.end()];
}

describe('PipedInputReader', () => {
  it('reads command names in any case, clicks with spaces or a comma, and keys on other lines', () => {
    expect(readAll(['reset\r\nAction4\nACTION6 12,30\n  action7  \nwd\nc 1 2\nq'])).toEqual([
      { kind: 'reset' },
      { kind: 'action', id: 4 },
      { kind: 'click', x: 12, y: 30 },
      { kind: 'action', id: 7 },
      { kind: 'action', id: 1 },
      { kind: 'action', id: 4 },
      { kind: 'typing-coordinates' },
      { kind: 'click', x: 1, y: 2 },
      { kind: 'quit' },
    ]);
  });

  it('answers a line that starts like a command but is none, and never types it as keys', () => {
    expect(readAll(['ACTION0\nACTION6\naction6 1\nresetx\nACTION4 3\nACTION6 64 0'])).toEqual([
      { kind: 'bad-line', text: 'ACTION0' },
      { kind: 'bad-line', text: 'ACTION6' },
      { kind: 'bad-coordinates', text: '1' },
      { kind: 'bad-line', text: 'resetx' },
      { kind: 'bad-line', text: 'ACTION4 3' },
      { kind: 'bad-coordinates', text: '64 0' },
    ]);
  });

  it('gives the same commands however the pipe splits the input', () => {
    const line = fc.constantFrom('RESET', 'action2', 'ACTION6 5 9', 'ACTION9', 'dddq', 'c 3 4', 'c 99 1', 'ws a', '', 'Action6 70,1');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (lines, cuts, crlf) => {
        const text = lines.join(crlf ? '\r\n' : '\n');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => text.slice(start, [...points, text.length][i]));
        expect(readAll(chunks)).toEqual(readAll([text]));
      }),
    );
  });
});
