/**
 * The one base of every error arcbench throws on purpose. Callers branch on `code` (stable across
 * versions), never on the message, which is a sentence for people and may be reworded.
 *
 * `instanceof` works across copies of this module, as undici's errors do: a plugin imports `arcbench`
 * through a loader of its own (and a project may hold two installs), so its ConfigError is another class
 * than the host's. Each error carries, under a `Symbol.for` key shared by every copy, the names of its
 * classes from its own up to ArcbenchError; `instanceof` of any class below here reads that mark instead
 * of the prototype chain. A class is known by its name, so no list of classes is kept anywhere.
 */
const ERROR_MARK = Symbol.for('arcbench.error');

type ErrorClass = abstract new (...args: never[]) => unknown;

/** The class names from `errorClass` up to (and with) ArcbenchError, most derived first. */
function lineageOf(errorClass: ErrorClass): readonly string[] {
  const names = [errorClass.name];
  for (let current = errorClass; current !== ArcbenchError; ) {
    current = Object.getPrototypeOf(current) as ErrorClass;
    names.push(current.name);
  }
  return Object.freeze(names);
}

function markOf(value: unknown): readonly string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const mark = (value as { [ERROR_MARK]?: unknown })[ERROR_MARK];
  return Array.isArray(mark) ? mark : undefined;
}

export class ArcbenchError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // Subclasses get their own name in stack traces and `String(error)` without repeating it.
    this.name = new.target.name;
    // Not enumerable, so errors print and compare as before.
    Object.defineProperty(this, ERROR_MARK, { value: lineageOf(new.target) });
  }

  /** `error instanceof ConfigError` (or any class below ArcbenchError): whichever copy made the error. */
  static override [Symbol.hasInstance]<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class right of `instanceof`, a subclass as often as not.
    return markOf(value)?.includes(this.name) === true;
  }
}

/** True for any arcbench error, also one made by another copy of this module (a plugin's). */
export function isArcbenchError(value: unknown): value is ArcbenchError {
  return markOf(value)?.includes(ArcbenchError.name) === true;
}

/**
 * A write to the run folder failed (a full disk, a volume gone): the machine's, never the agent's. The
 * episode it hit ends as an error of kind `disk`, and the run stops in order: no new episode, its
 * cards closed, run.json saying why when it can still be written.
 */
export class RunFolderWriteError extends ArcbenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RUN_FOLDER_WRITE_FAILED', message, options);
  }
}
