/**
 * API keys for `arcbench serve`, from a file (`--keys`) or inline (`ARCBENCH_KEYS`). Two formats:
 *
 *   JSON:  {"KEY": {"user_name": "alice", "user_id": "…"}, "KEY2": "bob"}   (a string is the user_name)
 *   lines: KEY user_name [user_id]          one per line; blank lines and `#` comments are skipped;
 *                                           inline, entries may also be separated by commas
 *
 * A missing user_id is derived from the user_name, stably, so cards keep their owner across restarts.
 * Errors name the source and line, and say what the line should look like.
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
  const keys = new Map<string, UserIdentity>();
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const entries = inline ? rawLine.split(',') : [rawLine];
    for (const entry of entries) {
      const line = entry.replace(/#.*$/, '').trim();
      if (line === '') continue;
      const where = `${source}:${index + 1}`;
      const fields = line.split(/\s+/);
      const [key, userName, userId] = fields;
      if (key === undefined || userName === undefined || fields.length > 3) {
        throw new KeysError(`${where}: ${JSON.stringify(line)} has ${fields.length} field(s); ${LINE_FORMAT}`);
      }
      addKey(keys, key, identity(userName, userId), where);
    }
  });
  return keys;
}

function parseJsonKeys(text: string, source: string): Map<string, UserIdentity> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = position ? `${source}:${lineAt(text, Number(position[1]))}` : source;
    throw new KeysError(`${where}: not valid JSON (${message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new KeysError(`${source}: expected a JSON object {"KEY": {"user_name": …}}`);
  const keys = new Map<string, UserIdentity>();
  for (const [key, entry] of Object.entries(value)) {
    const found = text.indexOf(JSON.stringify(key));
    const where = found < 0 ? source : `${source}:${lineAt(text, found)}`;
    if (typeof entry === 'string') {
      addKey(keys, key, identity(entry), where);
      continue;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new KeysError(`${where}: key ${JSON.stringify(key)}: expected {"user_name": …, "user_id"?: …} or a user name string`);
    const { user_name: userName, user_id: userId } = entry as Record<string, unknown>;
    if (typeof userName !== 'string' || userName === '') throw new KeysError(`${where}: key ${JSON.stringify(key)}: user_name must be a non-empty string`);
    if (userId !== undefined && (typeof userId !== 'string' || userId === ''))
      throw new KeysError(`${where}: key ${JSON.stringify(key)}: user_id must be a non-empty string when given`);
    addKey(keys, key, identity(userName, userId as string | undefined), where);
  }
  return keys;
}

function addKey(keys: Map<string, UserIdentity>, key: string, user: UserIdentity, where: string): void {
  // A key travels in an HTTP header: visible ASCII only, no spaces.
  if (!/^[\x21-\x7e]+$/.test(key)) throw new KeysError(`${where}: key ${JSON.stringify(key)} must be non-empty printable ASCII without spaces`);
  if (keys.has(key)) throw new KeysError(`${where}: key ${JSON.stringify(key)} is listed twice`);
  keys.set(key, user);
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
