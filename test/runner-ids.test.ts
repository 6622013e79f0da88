/**
 * Ids from the service never name files unchecked (issue 10, point 13): a server that answers a RESET
 * with the guid `../../x` writes no recording anywhere; the episode ends with a protocol error and the
 * run goes on. Recording names are built only from checked values.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { recordingFileName } from '../src/recording/recordingWriter.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { answerBytes, frameJson } from './support/httpWire.ts';
import { startRawServer } from './support/rawServer.ts';

const GAME = 'crat-0123abcd';
const CARD = '33333333-3333-4333-8333-333333333333';
const GUID = '11111111-1111-4111-8111-111111111111';
const dir = mkdtempSync(join(tmpdir(), 'arcbench-ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ids that name files', () => {
  it('build a recording name only from values the API allows', () => {
    expect(recordingFileName(GAME, 'random', 0, GUID, 'jsonl')).toBe(`${GAME}.random.0.${GUID}.recording.jsonl`);
    expect(() => recordingFileName(GAME, 'random', 0, '../../x')).toThrow(/session guid "\.\.\/\.\.\/x" cannot name a recording file/);
    expect(() => recordingFileName('crat/../../x', 'random', 0, GUID)).toThrow(/game id/);
    expect(() => recordingFileName(GAME, '../agent', 0, GUID)).toThrow(/agent label/);
  });

  it('a server that answers a RESET with guid ../../x gets no file written, and the run goes on', async () => {
    const server = await startRawServer((request, _index, socket) => {
      const json = (body: unknown) => socket.write(answerBytes(200, [['content-type', 'application/json']], JSON.stringify(body)));
      if (request.path === '/api/games') return json([{ game_id: GAME, title: 'Crate', tags: ['keyboard'], baseline_actions: [3] }]);
      if (request.path === '/api/scorecard/open') return json({ card_id: CARD });
      if (request.path === '/api/scorecard/close')
        return json({
          card_id: CARD,
          score: 0,
          environments: [],
          total_actions: 0,
          total_levels: 0,
          total_levels_completed: 0,
          total_environments: 0,
          total_environments_completed: 0,
          published_at: 'now',
        });
      socket.write(answerBytes(200, [['content-type', 'application/json']], frameJson(GAME, '../../x', 0)));
    });
    try {
      const file = join(dir, 'evil.yaml');
      writeFileSync(file, `name: evil\ntarget: { url: "${server.url}", api_key: k }\nagents: [{ use: random }]\nepisodes: 2\nrate_limit: false\n`);
      const out = join(dir, 'run', 'evil');
      const { episodes } = await runExperiment(await loadExperiment(file), { out });
      expect(episodes).toHaveLength(2);
      for (const episode of episodes) {
        expect(episode.error).toMatchObject({ kind: 'transport_protocol', message: expect.stringMatching(/guid|belongs to another request|not a uuid/) });
        expect(episode.recording).toBeNull();
      }
      expect(readdirSync(join(out, 'recordings'))).toEqual([]);
      expect(existsSync(join(dir, 'run', 'x'))).toBe(false);
      expect(readdirSync(join(dir, 'run'))).toEqual(['evil']);
    } finally {
      await server.close();
    }
  });
});
