/**
 * Piped input of `play`, read a line at a time: a line may name a command as an agent would send it
 * (`RESET`, `ACTION1` to `ACTION7`, `ACTION6 12 30`; any case), and any other line is keys, read as a
 * terminal's (`dddq`, `c 12 30`). A line that starts like a command name but is none (`ACTION9`, `ACTION6`
 * without x y) is answered, never typed as keys. The last line needs no newline.
 */
import { actionIdOf, CLICK_ACTION_ID, type PlainActionId } from '../../protocol/index.ts';
import { parseCoordinates, TerminalKeyReader, type TerminalCommand } from './terminalKeys.ts';

const COMMAND_LINE = /^\s*(reset|action)/i;
const PLAIN_COMMAND = /^\s*(RESET|ACTION[1-7])\s*$/i;
const CLICK_COMMAND = /^\s*ACTION6[\s,]+(\S.*)$/i;

export class PipedInputReader {
  private pending = '';
  private readonly keys = new TerminalKeyReader();

  /** Feeds piped input; returns the commands of the lines it completes. */
  feed(chunk: string): TerminalCommand[] {
    this.pending += chunk;
    const commands: TerminalCommand[] = [];
    for (let end = this.pending.indexOf('\n'); end >= 0; end = this.pending.indexOf('\n')) {
      commands.push(...this.line(this.pending.slice(0, end).replace(/\r$/, '')));
      this.pending = this.pending.slice(end + 1);
    }
    return commands;
  }

  /** At the end of input: the commands of a last line without a newline. */
  end(): TerminalCommand[] {
    const last = this.pending;
    this.pending = '';
    return last === '' ? [] : this.line(last);
  }

  private line(text: string): TerminalCommand[] {
    if (!COMMAND_LINE.test(text)) return this.keys.feed(`${text}\n`);
    const click = CLICK_COMMAND.exec(text);
    if (click !== null) return [parseCoordinates(click[1]!)];
    const plain = PLAIN_COMMAND.exec(text);
    if (plain === null) return [{ kind: 'bad-line', text: text.trim() }];
    const id = actionIdOf(plain[1]!.toUpperCase());
    if (id === 0) return [{ kind: 'reset' }];
    if (id === CLICK_ACTION_ID) return [{ kind: 'bad-line', text: text.trim() }];
    return [{ kind: 'action', id: id as PlainActionId }];
  }
}
