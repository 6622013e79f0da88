/**
 * The servers the toolkit-fidelity tests compare: the official toolkit server and `arcbench serve --dialect
 * toolkit` over the toolkit's test games, plain, and (when asked) each in competition mode as well.
 */
import type { ListeningChild } from './listeningChild.ts';
import { startOfficialToolkitServer } from './officialToolkitServer.ts';
import { serveGames } from './officialServe.ts';

export interface ToolkitServers {
  official: ListeningChild;
  ours: ListeningChild;
  /** Present when asked for with `competition`. */
  officialInCompetition?: ListeningChild;
  oursInCompetition?: ListeningChild;
  stop(): Promise<void>;
}

/** Starts them at once; `stop` stops every one started. */
export async function startToolkitServers(options: { competition?: boolean } = {}): Promise<ToolkitServers> {
  const starting = [startOfficialToolkitServer(), serveGames('toolkit')];
  if (options.competition) starting.push(startOfficialToolkitServer({ competition: true }), serveGames('toolkit', { flags: ['--competition'] }));
  const settled = await Promise.allSettled(starting);
  const started = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const stop = async () => {
    await Promise.all(started.map((server) => server.stop()));
  };
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  const [official, ours, officialInCompetition, oursInCompetition] = started as ListeningChild[];
  return { official: official!, ours: ours!, ...(options.competition ? { officialInCompetition, oursInCompetition } : {}), stop };
}
