/**
 * The optional response cache (`cache: true`): every answer stored on disk under a hash of the whole
 * request (base URL and body) and the episode's seed, so a second run with the same seed replays the
 * first one without a call to the provider: for debugging a prompt, and for re-running without paying
 * twice. The seed keeps repeated episodes apart: their first requests are the same, and one answer
 * replayed to all of them would make every repetition a copy of the first.
 *
 * The key never holds the API key: a cache folder can be shared. Files are written to a temporary name
 * and renamed, so episodes running side by side never read half a file.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** JSON with object keys sorted, so two equal requests give one key whatever the order of their fields. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export class ResponseCache {
  constructor(readonly folder: string) {
    mkdirSync(folder, { recursive: true });
  }

  keyOf(baseUrl: string, body: unknown, episodeSeed: number): string {
    return createHash('sha256')
      .update(canonicalJson({ base_url: baseUrl, body, episode_seed: episodeSeed }))
      .digest('hex');
  }

  /** The stored answer, or undefined when there is none (or it cannot be read). */
  get(key: string): unknown {
    try {
      return (JSON.parse(readFileSync(join(this.folder, `${key}.json`), 'utf8')) as { response: unknown }).response;
    } catch {
      return undefined;
    }
  }

  put(key: string, response: unknown): void {
    const file = join(this.folder, `${key}.json`);
    const temporary = `${file}.${randomUUID()}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ response })}\n`);
    renameSync(temporary, file);
  }
}
