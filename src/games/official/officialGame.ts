/**
 * An official game as the service sees it: its description from metadata.json and the engine (asked once,
 * at load), and its plays opened on a host of the pool, where they stay.
 */
import type { GameActionId, GameTag } from '../../protocol/index.ts';
import { decodeHexGrid } from '../../protocol/hexGrid.ts';
import type { GameInfo, GameInput, HostedFrame, HostedGame, HostedPlay } from '../types.ts';
import type { GameHost } from './gameHost.ts';
import type { GameHostPool } from './hostPool.ts';
import type { OfficialGameFiles } from './gamesFolder.ts';

let playCount = 0;

export class OfficialGame implements HostedGame {
  readonly hosted = true;

  constructor(
    readonly info: GameInfo,
    private readonly files: OfficialGameFiles,
    private readonly pool: GameHostPool,
  ) {}

  async open(seed: number): Promise<{ play: HostedPlay; frame: HostedFrame }> {
    const host = this.pool.host();
    const session = `p${++playCount}`;
    host.plays++;
    try {
      const answer = await host.request({ op: 'open', session, file: this.files.gameFile, class: this.files.className, seed });
      return { play: new OfficialPlay(host, session), frame: hostedFrame(answer) };
    } catch (error) {
      host.plays--;
      throw error;
    }
  }
}

class OfficialPlay implements HostedPlay {
  private closed = false;

  constructor(
    private readonly host: GameHost,
    private readonly session: string,
  ) {}

  async step(input: GameInput): Promise<HostedFrame> {
    const click = input.x === undefined ? {} : { x: input.x, y: input.y };
    return hostedFrame(await this.host.request({ op: 'act', session: this.session, action: input.id, ...click }));
  }

  async reset(levelsOnly: boolean): Promise<HostedFrame> {
    return hostedFrame(await this.host.request({ op: 'reset', session: this.session, levels_only: levelsOnly }));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.host.plays--;
    if (this.host.ended === undefined) this.host.request({ op: 'close', session: this.session }).catch(() => {});
  }
}

/** The service's description of a game, from its files and what its engine said of it. */
export function officialGameInfo(files: OfficialGameFiles, availableActions: readonly GameActionId[]): GameInfo {
  return {
    slug: files.gameId.split('-')[0]!,
    id: files.gameId,
    title: files.title,
    tags: [inputTag(availableActions)],
    defaultFps: files.defaultFps,
    availableActions,
    baselineActions: files.baselineActions,
    metadata: { title: files.titleAsWritten, tags: files.tags, dateDownloaded: files.dateDownloaded },
  };
}

/** metadata.json's tags are the authors' words, not input kinds; the input kind follows from the actions. */
function inputTag(actions: readonly GameActionId[]): GameTag {
  const clicks = actions.includes(6);
  if (!clicks) return 'keyboard';
  return actions.some((id) => id !== 6) ? 'keyboard_click' : 'click';
}

function hostedFrame(answer: Record<string, unknown>): HostedFrame {
  return {
    frames: (answer.frames as string[]).map(decodeHexGrid),
    state: answer.state as HostedFrame['state'],
    levelsCompleted: answer.levels_completed as number,
    winLevels: answer.win_levels as number,
    availableActions: answer.available_actions as GameActionId[],
    fullReset: answer.full_reset as boolean,
  };
}
