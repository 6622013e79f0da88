/**
 * API keys for `arcbench serve`, from a file (`--keys`) or inline (`ARCBENCH_KEYS`). Two formats:
 *
 *   JSON:  {"KEY": {"user_name": "alice", "user_id": "…"}, "KEY2": "bob"}   (a string is the user_name)
 *   lines: KEY user_name [user_id]          one per line; blank lines and `#` comments are skipped;
 *                                           inline, entries may also be separated by commas
 *
 * A missing user_id is derived from the user_name, stably, so cards keep their owner across restarts.
 * Errors name the source and line (and the entry, inline), and say what the line should look like; they
 * never quote the line or the key, since an error goes to a terminal or a CI log.
 */
import { ArcbenchError } from '../../errors.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { UserIdentity } from '../referenceService.ts';

export class KeysError extends ArcbenchError {
  constructor(message: string) {
    super('KEYS_FILE', message);
  }
}

const LINE_FORMAT = 'expected `KEY user_name [user_id]`';

export function loadKeysFile(path: string): Map<string, UserIdentity> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new KeysError(`${path}: cannot read the keys file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseKeys(text, path);
}

/** Parses keys text; `source` names it in errors (a path, or `ARCBENCH_KEYS`). `inline` allows commas. */
export function parseKeys(text: string, source: string, inline = false): Map<string, UserIdentity> {
  const keys = text.trimStart().startsWith('{') ? parseJsonKeys(text, source) : parseLineKeys(text, source, inline);
  if (keys.size === 0) throw new KeysError(`${source}: no keys found; ${LINE_FORMAT}, or a JSON object {"KEY": {"user_name": …}}`);
  return keys;
}

function parseLineKeys(text: string, source: string, inline: boolean): Map<string, UserIdentity> {
  const list = new KeyList();
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const entries = inline ? rawLine.split(',') : [rawLine];
    entries.forEach((entry, entryIndex) => {
      const line = entry.replace(/#.*$/, '').trim();
      if (line === '') return;
      const where = `${source}:${index + 1}${entries.length > 1 ? ` (entry ${entryIndex + 1})` : ''}`;
      const fields = line.split(/\s+/);
      const [key, userName, userId] = fields;
      if (key === undefined || userName === undefined || fields.length > 3) {
        throw new KeysError(`${where}: the entry has ${fields.length} field(s); ${LINE_FORMAT}`);
      }
      list.add(key, identity(userName, userId), where);
    });
  });
  return list.keys;
}

function parseJsonKeys(text: string, source: string): Map<string, UserIdentity> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8 quotes the text around the fault in its message, which may be a key: only a position is kept.
    const position = /position (\d+)/.exec((error as Error).message);
    const where = position ? `${source}:${lineAt(text, Number(position[1]))}` : source;
    throw new KeysError(`${where}: not valid JSON; check its quotes, commas and braces (the text is not shown, as it holds keys)`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new KeysError(`${source}: expected a JSON object {"KEY": {"user_name": …}}`);
  const list = new KeyList();
  for (const [key, entry] of Object.entries(value)) {
    const found = text.indexOf(JSON.stringify(key));
    const where = found < 0 ? source : `${source}:${lineAt(text, found)}`;
    if (typeof entry === 'string') {
      list.add(key, identity(entry), where);
      continue;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new KeysError(`${where}: the key's value must be {"user_name": …, "user_id"?: …} or a user name string`);
    const { user_name: userName, user_id: userId } = entry as Record<string, unknown>;
    if (typeof userName !== 'string' || userName === '') throw new KeysError(`${where}: the key's user_name must be a non-empty string`);
    if (userId !== undefined && (typeof userId !== 'string' || userId === ''))
      throw new KeysError(`${where}: the key's user_id must be a non-empty string when given`);
    list.add(key, identity(userName, userId as string | undefined), where);
  }
  return list.keys;
}

/** Keys read so far, with where each was listed, so a duplicate can name its first place. */
class KeyList {
  readonly keys = new Map<string, UserIdentity>();
  private readonly listedAt = new Map<string, string>();

  add(key: string, user: UserIdentity, where: string): void {
    // A key travels in an HTTP header: visible ASCII only, no spaces.
    if (!/^[\x21-\x7e]+$/.test(key)) throw new KeysError(`${where}: the key must be non-empty printable ASCII without spaces`);
    const first = this.listedAt.get(key);
    if (first !== undefined) throw new KeysError(`${where}: this key is listed twice (first at ${first}); give each key once`);
    this.listedAt.set(key, where);
    this.keys.set(key, user);
  }
}

function identity(userName: string, userId?: string): UserIdentity {
  return { user_name: userName, user_id: userId ?? derivedUserId(userName) };
}

/** A uuid-shaped id that depends only on the user name. */
function derivedUserId(userName: string): string {
  const hex = createHash('sha256').update(`arcbench-user:${userName}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
