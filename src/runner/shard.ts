/**
 * `--shard <i>/<n>`: a run plays the i-th of n parts of its plan, so that any matrix engine (a CI
 * matrix, a Kubernetes Indexed Job, a Slurm array) can spread one experiment over n machines. The
 * planned episodes, ordered by a hash of their key, are dealt round the n shards like cards: every
 * episode lands in exactly one shard, each shard gets an even share (sizes differ by one at most) with
 * a mix of agents, games and indices, and the cut depends only on the plan, never on concurrency,
 * timing or machine.
 */
import { createHash } from 'node:crypto';
import { ConfigError } from './config/loader.ts';
import { keyOfSpec } from '../runfolder/episodeKey.ts';

export interface Shard {
  /** 0-based, as JOB_COMPLETION_INDEX and most matrix indices are. */
  readonly index: number;
  readonly count: number;
}

/** Shards at most; far more than any matrix runs, small enough that a typo is caught. */
export const MAX_SHARDS = 10_000;

const SHARD_SYNTAX = /^(\d{1,5})\/(\d{1,5})$/;

export function parseShard(text: string): Shard {
  const match = SHARD_SYNTAX.exec(text.trim());
  const usage = `--shard takes <i>/<n>, the i-th of n parts counting from 0 (e.g. --shard 0/4 … --shard 3/4)`;
  if (match === null) throw new ConfigError(`${usage}; got "${text}"`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) throw new ConfigError(`${usage}; n must be from 1 to ${MAX_SHARDS}, got "${text}"`);
  if (index >= count) throw new ConfigError(`${usage}; i must be below n (the last of ${count} is ${count - 1}/${count}), got "${text}"`);
  return { index, count };
}

export function describeShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** A stable 48-bit hash of a key (the first 6 bytes of its SHA-256): the same on every machine and Node version. */
function keyHash(key: string): number {
  return createHash('sha256').update(key).digest().readUIntBE(0, 6);
}

/**
 * The episodes of `shard`, in plan order. Ties of the hash (vanishingly rare) are broken by the key
 * itself, so the order is total and every shard deals the same way.
 */
export function episodesOfShard<T extends Parameters<typeof keyOfSpec>[0]>(episodes: readonly T[], shard: Shard): T[] {
  const keyed = episodes.map((spec, position) => ({ position, key: keyOfSpec(spec), hash: 0 }));
  for (const entry of keyed) entry.hash = keyHash(entry.key);
  keyed.sort((a, b) => a.hash - b.hash || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const mine = new Set<number>();
  keyed.forEach((entry, rank) => {
    if (rank % shard.count === shard.index) mine.add(entry.position);
  });
  return episodes.filter((_, position) => mine.has(position));
}
