/**
 * The factorial arms an experiment expands to, as `arcbench plan` lists them: per design, its factors
 * with their levels, then every arm by name with the params its levels set.
 */
import type { ResolvedAgent } from '../runner/config/loader.ts';

/** Lines for a terminal; none for an experiment without arms. */
export function armsLines(agents: readonly ResolvedAgent[]): string[] {
  const designs = new Map<string, ResolvedAgent[]>();
  for (const agent of agents) if (agent.arm !== undefined) designs.set(agent.arm.of, [...(designs.get(agent.arm.of) ?? []), agent]);
  const lines: string[] = [];
  for (const [of, arms] of designs) {
    const factors = Object.keys(arms[0]!.arm!.levels);
    const levelsOf = (factor: string) => [...new Set(arms.map((a) => String(a.arm!.levels[factor])))];
    const shape = factors.map((f) => `${f} (${levelsOf(f).join(', ')})`).join(' × ');
    lines.push(`Factorial arms of ${of}: ${arms.length} = ${shape}`);
    for (const arm of arms) lines.push(`  ${arm.label}`);
  }
  return lines;
}
