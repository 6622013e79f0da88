/**
 * The ids the service hands out, as the API defines them (docs/protocol.md §1): a session `guid` and a `card_id` are
 * uuids; a game id is `slug-hex` (the slug and an 8-hex version) or a bare slug. A client checks an id
 * against these before it names a file or a URL with it, so a server cannot send `../../x`.
 */

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Generous on lengths (a future slug or version may be longer); only letters, digits and one dash. */
const GAME_ID = /^[A-Za-z0-9]{1,32}(?:-[0-9a-fA-F]{1,64})?$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && value.length === 36 && UUID.test(value);
}

export function isGameId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 97 && GAME_ID.test(value);
}

/** Whether `answered` (a full id) names the game `requested` (a full id or a bare slug) names. */
export function isSameGame(requested: string, answered: string): boolean {
  if (answered === requested) return true;
  return (
    answered.length > requested.length && answered.charCodeAt(requested.length) === 45 /* - */ && answered.startsWith(requested) && !requested.includes('-')
  );
}

/** A value for a message: short, and printable whatever the server sent. */
export function shownId(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
