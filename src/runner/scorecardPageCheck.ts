/**
 * Whether a run's scorecard link leads anywhere. A service URL's cards are linked at `<url>/scorecards/<card>`
 * by default, as on the hosted site; but not every service has those pages (the official toolkit's server
 * has none, docs/protocol.md §7a), and a link that answers 404 misleads. So once a card has closed, the
 * default page root is asked for that card's page, and kept only when the page is there. A root the
 * experiment names (`scorecard.page_root`) is the user's word and is not asked.
 */
import type { OpenTarget } from './targets.ts';

/** How long the one look at a page may take; a slow site keeps its link. */
const PAGE_CHECK_TIMEOUT_MS = 5_000;

/** The target's page root, unless asking for the page of one of `cards` proves it serves none (404). */
export async function servedPageRoot(target: OpenTarget, cards: readonly { card_id: string; state: string }[]): Promise<string | undefined> {
  const card = cards.find((entry) => entry.state === 'closed');
  if (target.pageRoot === undefined || !target.checkPages || card === undefined) return target.pageRoot;
  const page = `${target.pageRoot.replace(/\/+$/, '')}/scorecards/${encodeURIComponent(card.card_id)}`;
  try {
    const answer = await fetch(page, { method: 'GET', redirect: 'follow', signal: AbortSignal.timeout(PAGE_CHECK_TIMEOUT_MS) });
    await answer.body?.cancel();
    return answer.status === 404 ? undefined : target.pageRoot;
  } catch {
    // Out of reach now proves nothing about the page: the link stays, as without the check.
    return target.pageRoot;
  }
}
