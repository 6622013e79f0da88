/**
 * Turns terminal input into play commands: arrows or WASD for ACTION1–4, space ACTION5, z ACTION7,
 * r RESET, q quit, SGR mouse presses (mode 1006) as clicks, and `c` followed by "x y" and Enter for
 * a typed click where the terminal reports no mouse. Input may arrive in any chunking.
 */
import { isCoordinate, UNDO_ACTION_ID, type PlainActionId } from '../../protocol/index.ts';
import { gridCellOfTerminal } from './ansiGrid.ts';

export type TerminalCommand =
  | { readonly kind: 'action'; readonly id: PlainActionId }
  | { readonly kind: 'click'; readonly x: number; readonly y: number }
  | { readonly kind: 'reset' }
  | { readonly kind: 'quit' }
  /** `c` was typed: the next line holds coordinates. */
  | { readonly kind: 'typing-coordinates' }
  | { readonly kind: 'bad-coordinates'; readonly text: string }
  /** A piped line that names no command (see pipedInput.ts). */
  | { readonly kind: 'bad-line'; readonly text: string };

const SINGLE_KEYS: Record<string, TerminalCommand> = {
  w: { kind: 'action', id: 1 },
  s: { kind: 'action', id: 2 },
  a: { kind: 'action', id: 3 },
  d: { kind: 'action', id: 4 },
  ' ': { kind: 'action', id: 5 },
  z: { kind: 'action', id: UNDO_ACTION_ID },
  r: { kind: 'reset' },
  q: { kind: 'quit' },
  '\x03': { kind: 'quit' },
};

const ARROWS: Record<string, TerminalCommand> = {
  A: { kind: 'action', id: 1 },
  B: { kind: 'action', id: 2 },
  D: { kind: 'action', id: 3 },
  C: { kind: 'action', id: 4 },
};

// biome-ignore-start lint/suspicious/noControlCharactersInRegex: terminal input is escape sequences, which start with ESC (\x1b)
// SGR mouse report: ESC [ < button ; column ; line (M press | m release)
const MOUSE_REPORT = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])/;
const ARROW_KEY = /^\x1b[[O]([ABCD])/;
// An escape sequence that may still be arriving.
const PARTIAL_ESCAPE = /^\x1b(\[?|\[<[\d;]*|O)$/;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: terminal input is escape sequences

export class TerminalKeyReader {
  private pending = '';
  private coordinates: string | null = null;

  /** Feeds raw input; returns the commands it completes. */
  feed(chunk: string): TerminalCommand[] {
    this.pending += chunk;
    const commands: TerminalCommand[] = [];
    while (this.pending.length > 0) {
      if (this.coordinates !== null) {
        const char = this.pending[0];
        this.pending = this.pending.slice(1);
        if (char === '\r' || char === '\n') {
          commands.push(parseCoordinates(this.coordinates));
          this.coordinates = null;
        } else if (char === '\x1b') {
          this.coordinates = null;
        } else if (char === '\x7f' || char === '\b') {
          this.coordinates = this.coordinates.slice(0, -1);
        } else {
          this.coordinates += char;
        }
        continue;
      }
      if (this.pending[0] === '\x1b') {
        const mouse = MOUSE_REPORT.exec(this.pending);
        if (mouse !== null) {
          this.pending = this.pending.slice(mouse[0].length);
          const button = Number(mouse[1]);
          // a press of the left button, not a release, a drag or the wheel
          if (mouse[4] === 'M' && button === 0) {
            const cell = gridCellOfTerminal(Number(mouse[2]), Number(mouse[3]));
            if (cell !== null) commands.push({ kind: 'click', ...cell });
          }
          continue;
        }
        const arrow = ARROW_KEY.exec(this.pending);
        if (arrow !== null) {
          const [sequence, letter = ''] = arrow;
          this.pending = this.pending.slice(sequence.length);
          const command = ARROWS[letter];
          if (command !== undefined) commands.push(command);
          continue;
        }
        if (PARTIAL_ESCAPE.test(this.pending)) break;
        // an escape sequence we do not use: drop the escape character and read on
        this.pending = this.pending.slice(1);
        continue;
      }
      const char = this.pending.charAt(0);
      this.pending = this.pending.slice(1);
      if (char.toLowerCase() === 'c') {
        this.coordinates = '';
        commands.push({ kind: 'typing-coordinates' });
        continue;
      }
      const command = SINGLE_KEYS[char.toLowerCase()] ?? (char === '\x03' ? SINGLE_KEYS['\x03'] : undefined);
      if (command !== undefined) commands.push(command);
    }
    return commands;
  }
}

/** "x y" (or "x,y") as a click, or why not. */
export function parseCoordinates(text: string): TerminalCommand {
  const parts = text.trim().split(/[\s,]+/);
  const [x, y] = parts.map(Number);
  if (parts.length !== 2 || !isCoordinate(x) || !isCoordinate(y)) {
    return { kind: 'bad-coordinates', text };
  }
  return { kind: 'click', x, y };
}
