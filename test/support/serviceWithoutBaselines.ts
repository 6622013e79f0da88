/**
 * A service that gives level baselines nowhere: the toolkit dialect (no baselines in its game list) behind a
 * proxy that strips them from every scorecard, the close answer too. What the runner and the report do
 * when a game's scores cannot be computed.
 */
import { startServer } from '../../src/reference/server/index.ts';
import { startRewritingProxy } from './rewritingProxy.ts';

/** The experiment file's target block for it, and how to stop it. */
export async function serviceWithoutBaselines(): Promise<{ target: string; close(): Promise<void> }> {
  const server = await startServer({ dialect: 'toolkit', serviceOptions: { seed: 13 }, logger: false });
  const proxy = await startRewritingProxy(server.url, (path, body) =>
    path.startsWith('/api/scorecard/') ? body.replace(/"level_baseline_actions":\[[^\]]*\],?/g, '') : body,
  );
  return {
    target: `target: { url: "${proxy.url}", api_key: k }\n`,
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}
