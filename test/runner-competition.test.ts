/**
 * Competition mode from the config, with what it implies (docs/protocol.md §5; issue 10, points 8 and 10): one
 * agent and one episode per game, no RESET counted as a full reset, the unplayed games scored 0 at close
 * (and locally), an open whose answer is lost never repeated, and each card's page in run.json.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gameCatalog } from '../src/games/catalog.ts';
import { ConfigError, loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment, type RunReport } from '../src/runner/runExperiment.ts';
import { RunNotStartedError } from '../src/runner/runNotStarted.ts';
import { startServer } from '../src/reference/server/index.ts';
import { startFaultProxy } from './support/faultProxy.ts';

const KEY = 'competition-key';
const dir = mkdtempSync(join(tmpdir(), 'arcbench-competition-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, yaml: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\nrecordings: false\n${yaml}`);
  return file;
}

describe('competition mode', () => {
  it('allows one agent and one episode per game, and says why', async () => {
    const error = await loadExperiment(
      configFile('two', 'scorecard: { competition_mode: true }\nagents: [{ use: random }, { use: explorer }]\nepisodes: 2\n'),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /scorecard.competition_mode: a key may hold one open competition card at a time, so a run can evaluate one agent, and this one lists 2/,
    );
    expect((error as Error).message).toMatch(/episodes must be 1, not 2/);
  });

  it('plays a competition card: the unplayed games score 0, locally as on the service', async () => {
    const { report, episodes } = await runExperiment(
      await loadExperiment(
        configFile(
          'card',
          'target: { server: { backends: 2 } }\nscorecard: { competition_mode: true }\ngames: [crat, lamp]\nagents: [{ use: explorer }]\nbudgets: { max_actions: 40 }\n',
        ),
      ),
      { out: join(dir, 'card') },
    );
    expect(episodes).toHaveLength(2);
    const agent = report.agents[0]!;
    expect(agent.scorecard!.competition_mode).toBe(true);
    expect(agent.scorecard!.environments).toHaveLength(gameCatalog().length);
    expect(agent.local_score.total_environments).toBe(gameCatalog().length);
    expect(agent.score_differences).toEqual([]);
    expect(agent.scorecard_url).toBeNull(); // our own server has no scorecard pages
    expect(report.status).toBe('completed');
  });

  it('does not repeat an open whose answer was lost, says why, and counts the card it may have left', async () => {
    const server = await startServer({ backendCount: 1, logger: false });
    const proxy = await startFaultProxy(server.url, (request) =>
      request.path === '/api/scorecard/open' ? { kind: 'status', status: 504, when: 'after' } : undefined,
    );
    try {
      const out = join(dir, 'lost-open');
      const file = configFile(
        'lost-open',
        `target: { url: "${proxy.url}", api_key: ${KEY} }\nscorecard: { competition_mode: true }\ngames: [crat]\nagents: [{ use: random }]\nrate_limit: false\n`,
      );
      const error = await runExperiment(await loadExperiment(file), { out }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunNotStartedError);
      expect((error as Error).message).toMatch(
        /could not open a scorecard at http:\/\/127\.0\.0\.1:\d+: open scorecard \(competition mode\) may or may not have been applied.*one open card.*wait for that/,
      );
      expect(proxy.requests.filter((r) => r.path === '/api/scorecard/open')).toHaveLength(1);
      const report = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;
      expect(report.status).toBe('failed');
      expect(report.failure).toMatch(/competition mode/);
      expect(report.totals.unconfirmed_card_opens).toBe(1);
      expect(report.totals.episodes).toBe(0);
      // The card it left is there, open and empty, as run.json says may be.
      const cards = server.backends[0]!.scorecardIds(KEY);
      expect(cards).toHaveLength(1);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it("puts each card's page in run.json for a URL target, under the configured root", async () => {
    const server = await startServer({ backendCount: 1, logger: false });
    try {
      const plain = await runExperiment(
        await loadExperiment(
          configFile(
            'pages',
            `target: { url: "${server.url}/", api_key: ${KEY} }\ngames: [crat]\nagents: [{ use: random }]\nbudgets: { max_actions: 3 }\nrate_limit: false\n`,
          ),
        ),
        { out: join(dir, 'pages') },
      );
      const agent = plain.report.agents[0]!;
      expect(agent.scorecard_url).toBe(`${server.url}/scorecards/${agent.card_id}`);
      const rooted = await runExperiment(
        await loadExperiment(
          configFile(
            'rooted',
            `target: { url: "${server.url}", api_key: ${KEY} }\nscorecard: { page_root: "https://three.arcprize.org/" }\ngames: [crat]\nagents: [{ use: random }]\nbudgets: { max_actions: 3 }\nrate_limit: false\n`,
          ),
        ),
        { out: join(dir, 'rooted') },
      );
      expect(rooted.report.agents[0]!.scorecard_url).toBe(`https://three.arcprize.org/scorecards/${rooted.report.agents[0]!.card_id}`);
    } finally {
      await server.close();
    }
  });

  it('links no page where the service has none (the toolkit’s server answers 404), unless a root is configured', async () => {
    const server = await startServer({ backendCount: 1, logger: false, dialect: 'toolkit' });
    try {
      const config = (name: string, root = '') =>
        configFile(
          name,
          `target: { url: "${server.url}", api_key: ${KEY} }\n${root}games: [crat]\nagents: [{ use: random }]\nbudgets: { max_actions: 3 }\nrate_limit: false\n`,
        );
      const plain = await runExperiment(await loadExperiment(config('no-pages')), { out: join(dir, 'no-pages') });
      expect(plain.report.agents[0]!.scorecard_url).toBeNull();
      const rooted = await runExperiment(await loadExperiment(config('no-pages-rooted', 'scorecard: { page_root: "https://three.arcprize.org" }\n')), {
        out: join(dir, 'no-pages-rooted'),
      });
      expect(rooted.report.agents[0]!.scorecard_url).toBe(`https://three.arcprize.org/scorecards/${rooted.report.agents[0]!.card_id}`);
    } finally {
      await server.close();
    }
  });
});
