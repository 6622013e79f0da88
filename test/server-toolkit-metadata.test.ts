/**
 * Official games whose metadata.json has no title, no tags, empty tags, no date or a date with an offset and a
 * fraction: `serve --dialect toolkit` lists them and scores their tags as the official toolkit's own server
 * does over the same folder (docs/protocol.md §7a), and the arcbench dialect keeps input kinds and shows
 * the metadata's date as an instant (§10).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpTransport } from '../src/client/httpTransport.ts';
import { sendRequest } from './support/httpDriver.ts';
import { startOfficialToolkitServer } from './support/officialToolkitServer.ts';
import { serveGames } from './support/officialServe.ts';
import { tempDir } from './support/tempDir.ts';
import { TOOLKIT_GAMES_DIR } from './support/toolkitPlays.ts';

const BT11 = 'bt11-fd9df0622a1a';
const BT33 = 'bt33-a7c3f9d18b4e';
const KEY = { 'x-api-key': 'toolkit-metadata' };

/** The toolkit's two test games with other metadata: bt11 with no title, tags or date, bt33 with no tags and a zoned date. */
function gamesWithOtherMetadata(): string {
  const root = tempDir('toolkit-metadata');
  for (const [folder, file, metadata] of [
    ['game1', 'bt11.py', { game_id: BT11, baseline_actions: [4, 8, 16, 20, 24] }],
    ['game2', 'bt33.py', { game_id: BT33, title: 'BT33', tags: [], baseline_actions: [10, 15, 20], date_downloaded: '2024-01-19T10:00:00.5+02:00' }],
  ] as const) {
    mkdirSync(join(root, folder));
    copyFileSync(join(TOOLKIT_GAMES_DIR, folder === 'game1' ? 'game1' : 'game2/subdir', file), join(root, folder, file));
    writeFileSync(join(root, folder, 'metadata.json'), JSON.stringify(metadata));
  }
  return root;
}

/** The games, then a card with a level of bt11 completed: its texts, each server's own ids and load time masked. */
async function converse(url: string): Promise<string[]> {
  const texts: string[] = [];
  const ask = async (path: string, json?: unknown) => {
    const answer = await sendRequest(url, path, { headers: KEY, ...(json === undefined ? {} : { json }) });
    texts.push(answer.text);
    return answer.body as Record<string, string>;
  };
  await ask('/api/games');
  await ask(`/api/games/${BT11}`);
  const { card_id } = await ask('/api/scorecard/open', {});
  const { guid } = await ask('/api/cmd/RESET', { game_id: BT11, card_id });
  for (let i = 0; i < 4; i++) await ask('/api/cmd/ACTION3', { game_id: BT11, guid });
  await ask(`/api/scorecard/${card_id}`);
  await ask('/api/scorecard/close', { card_id });
  return texts.map((text) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '(an id)')
      .replace(/"date_downloaded":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z"/g, '"date_downloaded":"(the time the games were loaded)"'),
  );
}

describe('official games with metadata of other shapes', () => {
  it('are listed and scored by the toolkit dialect as by the official server: title and tags null, tags [], a date as written, no tags_scores', async () => {
    const games = gamesWithOtherMetadata();
    const [official, ours] = await Promise.all([startOfficialToolkitServer({ gamesDir: games }), serveGames('toolkit', { gamesDir: games })]);
    try {
      const [expected, got] = await Promise.all([converse(official.url), converse(ours.url)]);
      expect(expected[0]).toContain('"date_downloaded":"2024-01-19T10:00:00.500000+02:00"');
      expect(expected[0]).toContain('"tags":null');
      expect(expected[0]).toContain('"title":null');
      expect(expected.at(-1)).toContain('"tags_scores":[]');
      expect(got).toEqual(expected);
      // arcbench's client reads a game without title or tags (null) from either server.
      for (const url of [official.url, ours.url]) {
        const transport = new HttpTransport({ baseUrl: url, apiKey: 'toolkit-metadata', retryBaseDelayMs: 1 });
        try {
          const listed = await transport.listGames();
          expect(listed.find((game) => game.game_id === BT11)).toMatchObject({ title: null });
          expect(listed.find((game) => game.game_id === BT11)?.tags).toBeUndefined();
          expect((await transport.getGame(BT33)).tags).toEqual([]);
        } finally {
          await transport.close();
        }
      }
    } finally {
      await Promise.all([official.stop(), ours.stop()]);
    }
  }, 60_000);

  it('keep their input kinds in the arcbench dialect, and their metadata date as an instant', async () => {
    const server = await serveGames('arcbench', { gamesDir: gamesWithOtherMetadata() });
    try {
      const list = (await sendRequest(server.url, '/api/games', { headers: KEY })).body as { game_id: string; tags: string[]; date_downloaded: string }[];
      const bt33 = list.find((game) => game.game_id === BT33)!;
      expect(bt33).toMatchObject({ tags: ['click'], date_downloaded: '2024-01-19T08:00:00.500Z' });
      const bt11 = list.find((game) => game.game_id === BT11)!;
      expect(bt11.tags).toEqual(['keyboard']);
      expect(Math.abs(Date.parse(bt11.date_downloaded) - Date.now())).toBeLessThan(120_000);
      expect(new Date(bt11.date_downloaded).toISOString()).toBe(bt11.date_downloaded);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
