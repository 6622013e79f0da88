/**
 * The one base of every error arcbench throws on purpose. Callers branch on `code` (stable across
 * versions), never on the message, which is a sentence for people and may be reworded.
 */
export class ArcbenchError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // Subclasses get their own name in stack traces and `String(error)` without repeating it.
    this.name = new.target.name;
  }
}

/** True for any arcbench error, also one made by another copy of this module (a plugin's). */
export function isArcbenchError(value: unknown): value is ArcbenchError {
  return value instanceof ArcbenchError || (value instanceof Error && typeof (value as { code?: unknown }).code === 'string' && ERROR_NAMES.has(value.name));
}

/** The class names below ArcbenchError, for recognising an instance across module copies. */
const ERROR_NAMES = new Set([
  'ArcbenchError',
  'ApiError',
  'TransportError',
  'ConfigError',
  'RunFolderError',
  'AgentLoadError',
  'AgentContractError',
  'AgentProcessError',
  'HexGridError',
  'GridCodecError',
  'FrameResponseDecodeError',
  'KeysError',
  'RunFolderError',
  'RunsNotComparableError',
  'QueueRunError',
  'QueueUnreachableError',
]);
