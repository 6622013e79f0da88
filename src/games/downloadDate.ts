/**
 * When a game's files were downloaded: metadata.json's `date_downloaded` (docs/protocol.md §10), kept as
 * written (its wall-clock time, its fraction of a second, its offset or none) so that it can be shown as
 * the official toolkit shows it, and read as an instant where arcbench shows one.
 */

export interface DownloadDate {
  /** `YYYY-MM-DDTHH:MM:SS` as written (midnight for a bare date). */
  readonly wallClock: string;
  /** The fraction of a second, in microseconds (finer digits are dropped, as the toolkit drops them). */
  readonly microseconds: number;
  /** `Z` for UTC, `+HH:MM`/`-HH:MM`, or null for a time written without an offset. */
  readonly offset: string | null;
}

/** An ISO 8601 date, or date-time with seconds, fraction and offset optional (`T`, `t` or a space between). */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/** `text` as a download date, or undefined when it is not an ISO 8601 date or date-time. */
export function parseDownloadDate(text: string): DownloadDate | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, date, hours = '00', minutes = '00', seconds = '00', fraction = '', written] = match;
  const offset = offsetOf(written);
  if (offset === undefined) return undefined;
  const parsed = { wallClock: `${date}T${hours}:${minutes}:${seconds}`, microseconds: Number(fraction.padEnd(6, '0').slice(0, 6)), offset };
  return isRealTime(parsed) ? parsed : undefined;
}

/** The download date of an instant (milliseconds since the epoch), in UTC. */
export function downloadDateAt(epochMs: number): DownloadDate {
  const iso = new Date(epochMs).toISOString();
  return { wallClock: iso.slice(0, 19), microseconds: (epochMs - Math.floor(epochMs / 1000) * 1000) * 1000, offset: 'Z' };
}

/** The date as the toolkit's server writes it (pydantic): the fraction only when there is one, in six digits; the offset as kept. */
export function downloadDateText(date: DownloadDate): string {
  const fraction = date.microseconds === 0 ? '' : `.${String(date.microseconds).padStart(6, '0')}`;
  return `${date.wallClock}${fraction}${date.offset ?? ''}`;
}

/** The instant, as arcbench writes its times (ISO 8601 in UTC, milliseconds); a time without an offset is read as UTC. */
export function downloadDateInstant(date: DownloadDate): string {
  return new Date(utcMs(date)).toISOString();
}

/** `Z` for any zero offset, `±HH:MM` for another, null for none; undefined for an offset out of range. */
function offsetOf(written: string | undefined): string | null | undefined {
  if (written === undefined) return null;
  if (written === 'Z' || written === 'z') return 'Z';
  const digits = written.replace(':', '');
  const hours = Number(digits.slice(1, 3));
  const minutes = Number(digits.slice(3, 5));
  if (hours > 23 || minutes > 59) return undefined;
  return hours === 0 && minutes === 0 ? 'Z' : `${digits[0]}${digits.slice(1, 3)}:${digits.slice(3, 5)}`;
}

function utcMs(date: DownloadDate): number {
  const asUtc = Date.parse(`${date.wallClock}Z`) + Math.floor(date.microseconds / 1000);
  if (date.offset === null || date.offset === 'Z') return asUtc;
  const sign = date.offset.startsWith('-') ? -1 : 1;
  return asUtc - sign * (Number(date.offset.slice(1, 3)) * 60 + Number(date.offset.slice(4, 6))) * 60_000;
}

/** Whether the wall-clock time exists (no 30 February, no 25 o'clock). */
function isRealTime(date: DownloadDate): boolean {
  const parsed = Date.parse(`${date.wallClock}Z`);
  return !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 19) === date.wallClock;
}
