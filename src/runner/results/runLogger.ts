/**
 * The run's pino logger: every line to run.log as JSON (written synchronously, so a killed run keeps its
 * log), and, as short readable lines, to a console sink when the CLI gives one (stderr that is not a
 * terminal, as in CI, where the live progress line is absent). Keys are redacted wherever they appear.
 */
import { LOG_REDACT_PATHS, REDACTED } from '../../redaction.ts';
import pino, { type Logger } from 'pino';
import { type LineSink, readableStream } from './readableLog.ts';

/** `console`: where readable lines go as well (the CLI's stderr, when it is not a terminal). */
export function createRunLogger(logFile: string | undefined, options: { console?: LineSink; level?: string }): Logger {
  const streams: pino.StreamEntry[] = [];
  if (logFile !== undefined) streams.push({ level: 'debug', stream: pino.destination({ dest: logFile, sync: true, mkdir: true }) });
  if (options.console) streams.push({ level: 'info', stream: readableStream(options.console) });
  if (streams.length === 0) return pino({ enabled: false });
  return pino({ level: options.level ?? 'debug', redact: { paths: LOG_REDACT_PATHS, censor: REDACTED }, base: undefined }, pino.multistream(streams));
}
