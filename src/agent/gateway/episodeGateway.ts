/**
 * An agent process's gateway for one episode, wired to the episode: each call it sees is reported
 * (reportUsage) and kept (keepTranscript) for the step being decided, and counted, so that usage the
 * agent reports for the same step is not counted a second time (processAgent.ts). The gateway's module
 * is imported here, when such an episode starts, and by nothing else.
 */
import type { AgentContext } from '../contract.ts';
import type { ModelGatewaySettings } from './gatewaySettings.ts';
import type { ModelGateway } from './modelGateway.ts';

export interface EpisodeGateway {
  readonly gateway: ModelGateway;
  /** Calls the gateway has counted in this episode so far. */
  readonly calls: () => number;
}

export async function startEpisodeGateway(settings: ModelGatewaySettings, context: AgentContext<unknown>): Promise<EpisodeGateway> {
  const { ModelGateway } = await import('./modelGateway.ts');
  let calls = 0;
  const gateway = await ModelGateway.start({
    settings,
    maxCostUsd: context.budgets?.max_cost_usd,
    onCall: (call) => {
      calls += 1;
      context.reportUsage(call.usage);
      if (context.keepsTranscripts !== false) context.keepTranscript(call);
    },
  });
  return { gateway, calls: () => calls };
}
