/** Game ids are `slug-<8 hex>`, the hex a hash of the definition, so any change to a level changes the id. */
import { createHash } from 'node:crypto';
import type { LevelSource } from './definition.ts';

export function gameIdOf(slug: string, rulesVersion: string, levels: readonly LevelSource[]): string {
  const definition = JSON.stringify({ slug, rulesVersion, levels: levels.map((level) => [level.map, level.baseline]) });
  return `${slug}-${createHash('sha256').update(definition).digest('hex').slice(0, 8)}`;
}
