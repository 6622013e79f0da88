/**
 * `arcbench/queue`: the worker pool for code that runs experiments itself. An entry of its own, so
 * that `import 'arcbench'` never loads bullmq and ioredis:
 * `runExperiment(experiment, { scheduler: queueScheduler(parseRedisAddress('redis://host:6379')) })`
 * queues the episodes for `arcbench worker`s to play, as `arcbench run --queue` does.
 */
export { queueScheduler } from './queueScheduler.ts';
export { parseRedisAddress } from './redisAddress.ts';
export type { RedisAddress } from './redisAddress.ts';
export { QueueUnreachableError } from './connectRedis.ts';
