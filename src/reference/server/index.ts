/** The HTTP server of the reference service: build it (for inject), or start it on a port. */
export { buildServer, assembleServer, type AssembledServer } from './app.ts';
export { startServer, type StartServerOptions, type RunningServer } from './start.ts';
export { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_SWEEP_INTERVAL_MS, type ServerOptions } from './options.ts';
export { AFFINITY_COOKIE, AFFINITY_CORS_COOKIE, AFFINITY_GRACE_GENERATIONS, AFFINITY_DEFAULT_GRACE_MS } from './affinityRouter.ts';
export { parseKeys, loadKeysFile, KeysError } from './keys.ts';
export { createServeLogger } from './logging.ts';
export { DIALECTS, type Dialect } from './dialect.ts';
export { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connectionLimits.ts';
