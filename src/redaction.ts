/**
 * What counts as a secret, in one place: the field names every log and results file redacts, the values
 * a run took from the environment, and the text that replaces them. The runner's logs, the server's
 * logs, run.json, episodes.jsonl and the tables all use this.
 */

export const REDACTED = '[redacted]';

/** A field or variable named like a key, token, secret or password (`api_key`, `OPENAI_API_KEY`, `authToken`). */
export function looksSecret(name: string): boolean {
  let known = SECRET_NAMES.get(name);
  if (known === undefined) {
    known = /(key|token|secret|passw(or)?d|authorization|credential)s?$/i.test(name.replace(/[^A-Za-z]/g, ''));
    if (SECRET_NAMES.size < MAX_REMEMBERED_NAMES) SECRET_NAMES.set(name, known);
  }
  return known;
}

/**
 * Key prefixes the model providers and code hosts issue (OpenAI `sk-`, `sk-proj-`, Anthropic `sk-ant-`,
 * xAI `xai-`, Groq `gsk_`, Hugging Face `hf_`, GitHub `ghp_`/`github_pat_`, GitLab `glpat-`, Google
 * `AIza`, AWS `AKIA`, Slack `xox?-`, Stripe-style `sk_`/`rk_`).
 */
const KEY_PREFIX = /^(sk-|sk_|rk_|xai-|gsk_|hf_|ghp_|gho_|ghs_|github_pat_|glpat-|AIza|AKIA|xox[abprs]-)/;

/**
 * A value that reads like a key, whatever field it was typed in: a provider's key prefix, or a long run
 * of letters and digits (both) without spaces. Errors that describe a value they found say "a value that
 * looks like a key" instead of echoing it: a key pasted into the wrong field must not reach a terminal or a CI log.
 */
export function looksLikeSecretValue(value: string): boolean {
  const text = value.trim();
  if (KEY_PREFIX.test(text)) return true;
  return text.length >= 20 && /^[A-Za-z0-9_\-.+/=]+$/.test(text) && /[0-9]/.test(text) && /[A-Za-z]/.test(text);
}

/**
 * Free text (a name, a label, a tag, a description, a link) holding a key-shaped word: a key pasted there
 * would be echoed and stored (the terminal, run.json, run.log, the report, the folder's name, the
 * service's card tags). Stricter about words than looksLikeSecretValue is about whole values, since
 * names are long too: `arc-agi-3-explorer-baseline-2024` is no key, its parts are short words.
 */
export function holdsSecretValue(text: string): boolean {
  return text.split(/[\s"'`,;:()<>[\]{}?&#@/=]+/).some(keyShapedWord);
}

/** A service key (a UUID, as the ARC service issues), a provider's prefix on a long word, or a long letters-and-digits run. */
function keyShapedWord(word: string): boolean {
  if (UUID.test(word) || (word.length >= 20 && KEY_PREFIX.test(word))) return true;
  // A git commit hash is a common tag, and no key any provider issues has its shape.
  return word.split(/[-_.+]+/).some((part) => part.length >= 20 && /[0-9]/.test(part) && /[A-Za-z]/.test(part) && !/^[0-9a-f]{40}$/.test(part));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How an error sentence shows a string it found: quoted, or, when it looks like a key, not at all. */
export function shownValue(value: string): string {
  return looksLikeSecretValue(value) ? 'a value that looks like a key (not shown)' : JSON.stringify(value);
}

/**
 * The answer for each field name met so far: run.json repeats the same few dozen names thousands of
 * times, and the regex was a third of what redacting a 2,000-episode report cost.
 */
const SECRET_NAMES = new Map<string, boolean>();
/** Field names are few; free-form keys (an agent's details) must not grow the map without end. */
const MAX_REMEMBERED_NAMES = 10_000;

/** pino redaction paths: the key header and key-named fields, at the depths our log lines put them. */
export const LOG_REDACT_PATHS = [
  'apiKey',
  'api_key',
  '*.apiKey',
  '*.api_key',
  '*.*.api_key',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
];

/**
 * A deep copy of `value` with every secret-named string replaced by REDACTED (an agent's stop details,
 * and run.json and the tables through Redactor).
 */
export function redactSecretFields(value: unknown): unknown {
  return NO_VALUES.value(value);
}

/** Values shorter than this are found only as whole strings, not inside text: too short to find safely. */
const MIN_SECRET_CHARS = 6;

/**
 * A run's secrets: the values its config took from the environment through `${VAR}` (a string that is
 * one is redacted whole, and one of MIN_SECRET_CHARS or more wherever it appears inside text), and
 * every field named like a secret. Only strings are rewritten, so JSON stays JSON.
 */
export class Redactor {
  readonly #whole: ReadonlySet<string>;
  readonly #inside: readonly string[];

  constructor(values: Iterable<string> = []) {
    this.#whole = new Set([...values].filter((v) => v !== ''));
    // Longest first, so a secret containing another is replaced whole.
    this.#inside = [...this.#whole].filter((v) => v.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
  }

  /** Whether there is anything to find (without, everything passes as it is, at no cost). */
  get active(): boolean {
    return this.#whole.size > 0;
  }

  /** `text` with every secret value in it replaced. */
  text(text: string): string {
    if (this.#whole.has(text)) return REDACTED;
    let result = text;
    for (const value of this.#inside) if (result.includes(value)) result = result.replaceAll(value, REDACTED);
    return result;
  }

  /**
   * A deep copy of `value` with secret values and secret-named strings redacted. Only strings: a
   * secret is text, while numbers under such names are counts (`max_output_tokens`, `context_tokens`)
   * that a reader of run.json needs.
   */
  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value === null || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const redacted = looksSecret(key) && typeof item === 'string' && item !== '' ? REDACTED : this.value(item);
      // A `__proto__` key (JSON.parse makes one) stays data: an assignment would set the prototype.
      if (key === '__proto__') Object.defineProperty(copy, key, { value: redacted, enumerable: true, writable: true, configurable: true });
      else copy[key] = redacted;
    }
    return copy;
  }
}

/** Knows no values: redacts secret-named fields only. */
const NO_VALUES = new Redactor();
