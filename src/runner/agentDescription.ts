/**
 * The runner's one door to what an agent says of itself (src/agent/description.ts): the definition's
 * `describe` with the agent entry's parsed params. An agent that says nothing is described as empty.
 */
import type { AgentDescription } from '../agent/description.ts';
import type { ResolvedAgent } from './config/loader.ts';

export function describeAgent(agent: Pick<ResolvedAgent, 'definition' | 'params'>): AgentDescription {
  return agent.definition.describe?.(agent.params) ?? {};
}
