/**
 * What differs between two runs' harness cards (src/runfolder/harnessCard.ts), fact by fact: the run's
 * facts, then each agent's, agents matched by label. `compare` says it before any score, since a score
 * difference between two harnesses is the harness's as much as the model's.
 */
import { type CardFact, type CardFacts, type HarnessCard, UNKNOWN_CARD } from '../runfolder/harnessCard.ts';

export interface CardDifference {
  /** `run`, or `agent <label>`. */
  readonly where: string;
  readonly fact: string;
  /** Undefined: the card does not say (the fact is not on it). */
  readonly baseline: CardFact | undefined;
  readonly candidate: CardFact | undefined;
}

export interface CardComparison {
  /** `unknown` when either run kept no card. */
  readonly state: 'identical' | 'different' | 'unknown';
  readonly differences: readonly CardDifference[];
  /** Agents on one card only, by label. */
  readonly onlyIn: { readonly baseline: readonly string[]; readonly candidate: readonly string[] };
  /** For `unknown`: which run's card is missing, in words. */
  readonly note: string | null;
}

/** `agents`: compare this agent of the baseline with that one of the candidate (compare --baseline-agent/--candidate-agent). */
export function compareHarnessCards(
  baseline: HarnessCard | undefined,
  candidate: HarnessCard | undefined,
  agents?: { readonly baseline: string; readonly candidate: string },
): CardComparison {
  const none = { baseline: [], candidate: [] };
  if (baseline === undefined || candidate === undefined) {
    const which = baseline === undefined && candidate === undefined ? 'both runs' : baseline === undefined ? 'the baseline' : 'the candidate';
    return { state: 'unknown', differences: [], onlyIn: none, note: `harness card of ${which}: ${UNKNOWN_CARD}` };
  }
  const differences = factDifferences('run', baseline.run, candidate.run);
  // Two chosen agents go under the name compare gives the pair (`random → explorer`), so the two line up.
  const pairName = agents === undefined ? '' : `${agents.baseline} → ${agents.candidate}`;
  const before = agentFacts(baseline, agents?.baseline, pairName);
  const after = agentFacts(candidate, agents?.candidate, pairName);
  for (const [label, facts] of before) {
    const other = after.get(label);
    if (other !== undefined) differences.push(...factDifferences(`agent ${label}`, facts, other));
  }
  const onlyIn = {
    baseline: [...before.keys()].filter((label) => !after.has(label)),
    candidate: [...after.keys()].filter((label) => !before.has(label)),
  };
  const same = differences.length === 0 && onlyIn.baseline.length === 0 && onlyIn.candidate.length === 0;
  return { state: same ? 'identical' : 'different', differences, onlyIn, note: null };
}

/** The card's agents by label, or the one chosen agent under the pair's name. */
function agentFacts(card: HarnessCard, only: string | undefined, pairName: string): Map<string, CardFacts> {
  if (only === undefined) return new Map(card.agents.map((a) => [a.label, a.facts]));
  const chosen = card.agents.find((a) => a.label === only);
  return new Map(chosen === undefined ? [] : [[pairName, chosen.facts]]);
}

function factDifferences(where: string, before: CardFacts, after: CardFacts): CardDifference[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((fact) => before[fact] !== after[fact]).map((fact) => ({ where, fact, baseline: before[fact], candidate: after[fact] }));
}

const shown = (fact: CardFact | undefined): string => (fact === undefined ? 'not said' : fact === null ? 'none' : String(fact));

/** The comparison in lines for a terminal or markdown: a heading sentence, then one line per difference. */
export function harnessCardLines(comparison: CardComparison): string[] {
  if (comparison.state === 'unknown') return [comparison.note ?? UNKNOWN_CARD];
  if (comparison.state === 'identical') return ['Harness cards: identical (the runs differ in nothing the cards record).'];
  const lines = ['Harness cards differ (baseline → candidate); the scores below compare these harnesses too:'];
  for (const d of comparison.differences) lines.push(`  ${d.where}: ${d.fact} ${shown(d.baseline)} → ${shown(d.candidate)}`);
  for (const label of comparison.onlyIn.baseline) lines.push(`  agent ${label}: only in the baseline`);
  for (const label of comparison.onlyIn.candidate) lines.push(`  agent ${label}: only in the candidate`);
  return lines;
}

/** The same as markdown: the sentence, then the differences as a list. */
export function harnessCardMarkdown(comparison: CardComparison): string {
  const [sentence = '', ...differences] = harnessCardLines(comparison);
  return [sentence, ...(differences.length === 0 ? [] : ['', ...differences.map((line) => `- ${line.trim()}`)])].join('\n');
}
