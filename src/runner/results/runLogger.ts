/**
 * The run's pino logger: every line to run.log (written synchronously, so a killed run keeps its log),
 * and to stderr as well when stderr is not a terminal (CI), where the live progress line is absent.
 * Keys are redacted wherever they appear.
 */
import { LOG_REDACT_PATHS, REDACTED } from '../../redaction.ts';
import pino, { type Logger } from 'pino';


export function createRunLogger(logFile: string | undefined, options: { console: boolean; level?: string }): Logger {
  const streams: pino.StreamEntry[] = [];
  if (logFile !== undefined) streams.push({ level: 'debug', stream: pino.destination({ dest: logFile, sync: true, mkdir: true }) });
  if (options.console) streams.push({ level: 'info', stream: pino.destination({ dest: 2, sync: true }) });
  if (streams.length === 0) return pino({ enabled: false });
  return pino(
    { level: options.level ?? 'debug', redact: { paths: LOG_REDACT_PATHS, censor: REDACTED }, base: undefined },
    pino.multistream(streams),
  );
}
