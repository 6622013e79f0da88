/**
 * A conversation with a server, kept as a client reads it (status, Content-Type, text), and the check that
 * two servers held the same one: how the toolkit-fidelity tests compare `serve --dialect toolkit` with the
 * official toolkit server, answer by answer.
 */
import { expect } from 'vitest';
import { sendRequest } from './httpDriver.ts';

export interface Exchange {
  what: string;
  status: number;
  type: string;
  text: string;
}

/** Asks `url` with `headers`; each answer is kept in `exchanges` under `what`, and its body returned. */
export function conversation(url: string, headers: Record<string, string>) {
  const exchanges: Exchange[] = [];
  /** `json` is sent as JSON; `body`, a raw text sent as `contentType`, wins over it. */
  const ask = async (what: string, path: string, json?: unknown, body?: string, contentType = 'application/json') => {
    const sent = body === undefined ? { headers, ...(json === undefined ? {} : { json }) } : { headers: { ...headers, 'content-type': contentType }, body };
    const answer = await sendRequest(url, path, sent);
    exchanges.push({ what, status: answer.status, type: answer.headers['content-type'] ?? '', text: answer.text });
    return answer.body;
  };
  return { exchanges, ask };
}

/** The same exchanges, each id (a uuid) replaced by its order of first appearance, so two servers' compare. */
export function comparable(exchanges: readonly Exchange[]): Exchange[] {
  const ids = new Map<string, string>();
  const placeholder = (id: string) => {
    if (!ids.has(id)) ids.set(id, `id${ids.size + 1}`);
    return ids.get(id)!;
  };
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  return exchanges.map((exchange) => ({ ...exchange, text: exchange.text.replace(uuid, placeholder) }));
}

/** Both conversations asked the same, and were answered alike, ids aside. */
export function expectSameAnswers(got: readonly Exchange[], expected: readonly Exchange[]): void {
  const [ours, theirs] = [comparable(got), comparable(expected)];
  expect(ours.map((e) => e.what)).toEqual(theirs.map((e) => e.what));
  for (const [i, exchange] of ours.entries()) expect(exchange, exchange.what).toEqual(theirs[i]);
}
