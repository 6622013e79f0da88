/**
 * What goes wrong with official games, each worded for the user: no arcengine, a game file that does not
 * import, a malformed metadata.json, a game that raises mid-step, a host that dies.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessTransport } from '../src/client/inProcessTransport.ts';
import { loadOfficialGames } from '../src/games/official/index.ts';
import { ApiError, makeAction } from '../src/protocol/index.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { pythonHasRealEngineDependencies, REAL_ARCENGINE } from './support/officialCode.ts';

const ENGINE_ENV = { ...process.env, PYTHONPATH: REAL_ARCENGINE };
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A one-level game: ACTION1 does nothing, ACTION2 raises, ACTION5 kills its host. */
const FAULTY_GAME = `import os
from arcengine import ARCBaseGame, Camera, GameAction, Level

class Bt99(ARCBaseGame):
    def __init__(self):
        super().__init__(game_id="bt99", levels=[Level(sprites=[], grid_size=(8, 8))], camera=Camera(background=5, letter_box=3), available_actions=[1, 2, 5])

    def step(self):
        if self.action.id == GameAction.ACTION2:
            raise RuntimeError("the game broke")
        if self.action.id == GameAction.ACTION5:
            os._exit(9)
        self.complete_action()
`;

function gamesFolder(code: string, metadata: unknown = { game_id: 'bt99-0001', baseline_actions: [3] }): string {
  const root = mkdtempSync(join(tmpdir(), 'arcbench-official-'));
  folders.push(root);
  mkdirSync(join(root, 'bt99', '0001'), { recursive: true });
  writeFileSync(join(root, 'bt99', '0001', 'metadata.json'), typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  writeFileSync(join(root, 'bt99', '0001', 'bt99.py'), code);
  return root;
}

describe.skipIf(!pythonHasRealEngineDependencies())('official game faults (python3 lacks numpy or pydantic otherwise)', () => {
  it('says how to install arcengine when the interpreter lacks it, before anything is played', async () => {
    const load = loadOfficialGames(gamesFolder(FAULTY_GAME), { env: { ...process.env, PYTHONPATH: '' }, hosts: 1 });
    await expect(load).rejects.toThrow(/cannot import.*arcengine.*pip install arcengine/s);
  });

  it('names the file and line of a game that fails to import', async () => {
    const folder = gamesFolder('import os\n\nraise ImportError("no such helper")\n');
    await expect(loadOfficialGames(folder, { env: ENGINE_ENV, hosts: 1 })).rejects.toThrow(/bt99\.py:3: ImportError: no such helper/);
  });

  it('names the file and field of a malformed metadata.json', async () => {
    const folder = gamesFolder(FAULTY_GAME, { game_id: 'bt99-0001', baseline_actions: [] });
    await expect(loadOfficialGames(folder, { env: ENGINE_ENV, hosts: 1 })).rejects.toThrow(/metadata\.json: .*baseline_actions.*baseline/s);
    await expect(loadOfficialGames(gamesFolder(FAULTY_GAME, '{ not json'), { env: ENGINE_ENV, hosts: 1 })).rejects.toThrow(/metadata\.json: is not JSON/);
  });

  it('names a date_downloaded that is no date, and tags that are not strings', async () => {
    const undated = gamesFolder(FAULTY_GAME, { game_id: 'bt99-0001', baseline_actions: [3], date_downloaded: '19 January 2024' });
    await expect(loadOfficialGames(undated, { env: ENGINE_ENV, hosts: 1 })).rejects.toThrow(/metadata\.json: .*date_downloaded.*ISO 8601/s);
    const badlyTagged = gamesFolder(FAULTY_GAME, { game_id: 'bt99-0001', baseline_actions: [3], tags: 'tag1' });
    await expect(loadOfficialGames(badlyTagged, { env: ENGINE_ENV, hosts: 1 })).rejects.toThrow(/metadata\.json: .*tags/s);
  });

  it('ends the session of a game that raises, with its file and line, and goes on with others', async () => {
    const official = await loadOfficialGames(gamesFolder(FAULTY_GAME), { env: ENGINE_ENV, hosts: 1 });
    try {
      const transport = new InProcessTransport(new ReferenceService({ games: official.games }));
      const card = await transport.openScorecard();
      const broken = await transport.reset(card, 'bt99');
      await expect(transport.act(card, 'bt99', broken.guid, makeAction(2))).rejects.toThrow(/bt99-0001 failed: .*bt99\.py:10: RuntimeError: the game broke/);
      await expect(transport.act(card, 'bt99', broken.guid, makeAction(1))).rejects.toThrow(/no live session/);
      const other = await transport.reset(card, 'bt99');
      expect((await transport.act(card, 'bt99', other.guid, makeAction(1))).state).toBe('NOT_FINISHED');
    } finally {
      official.close();
    }
  }, 30_000);

  it('ends the sessions of a host that dies, and a new host plays the next', async () => {
    const official = await loadOfficialGames(gamesFolder(FAULTY_GAME), { env: ENGINE_ENV, hosts: 1 });
    try {
      const transport = new InProcessTransport(new ReferenceService({ games: official.games }));
      const card = await transport.openScorecard();
      const doomed = await transport.reset(card, 'bt99');
      const error = await transport.act(card, 'bt99', doomed.guid, makeAction(5)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toMatch(/game host .* ended \(exit code 9\)/);
      const next = await transport.reset(card, 'bt99');
      expect((await transport.act(card, 'bt99', next.guid, makeAction(1))).state).toBe('NOT_FINISHED');
    } finally {
      official.close();
    }
  }, 30_000);
});
