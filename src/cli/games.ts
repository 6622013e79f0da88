/** `arcbench games`: the catalog of original games, or a folder's official games, as a table or as JSON. */
import Table from 'cli-table3';
import type { Command } from 'commander';
import type { GameInfo } from '../games/types.ts';
import { actionName } from '../protocol/index.ts';
import { puzzleCatalog } from '../games/puzzleCatalog.ts';
import { colourWanted } from './colour.ts';
import { type GamesDirOptions, gameHostsOption, gamesDirOption, loadGamesDirOrExit } from './gamesDir.ts';

interface GamesOptions extends GamesDirOptions {
  json?: boolean;
}

/** A game as listed: its description, and the step budgets our own games know of. */
interface Listed {
  readonly info: GameInfo;
  readonly stepBudgets?: unknown;
}

export function register(program: Command): void {
  program
    .command('games')
    .description('List the original games of the reference service (or, with --games-dir, official ones): id, title, input kind, levels, actions.')
    .option('--json', "print the game descriptors as JSON (the field names of the service's game list, with levels and step budgets added) instead of a table")
    .addOption(gamesDirOption())
    .addOption(gameHostsOption().default(1))
    .addHelpText('after', '\nThe table has a coloured header on a terminal; piped, or with NO_COLOR set, it is plain text.')
    .action(async (options: GamesOptions) => {
      const official = await loadGamesDirOrExit('games', options);
      // A folder's games come in the order its files were found: listed by id here, as a reader looks for them.
      const listed: readonly Listed[] =
        official === undefined ? puzzleCatalog() : official.games.map((game) => ({ info: game.info })).sort((a, b) => (a.info.id < b.info.id ? -1 : 1));
      official?.close();
      process.stdout.write(options.json === true ? `${gamesAsJson(listed)}\n` : `${gamesAsTable(listed)}\n`);
    });
}

function gamesAsJson(listed: readonly Listed[]): string {
  const descriptors = listed.map(({ info, stepBudgets }) => ({
    game_id: info.id,
    title: info.title,
    tags: info.tags,
    default_fps: info.defaultFps,
    available_actions: info.availableActions,
    baseline_actions: info.baselineActions,
    levels: info.baselineActions.length,
    ...(stepBudgets === undefined ? {} : { step_budgets: stepBudgets }),
  }));
  return JSON.stringify(descriptors, null, 2);
}

function gamesAsTable(listed: readonly Listed[]): string {
  // cli-table3 colours its header and borders unless told to use no style.
  const style = colourWanted(process.stdout) ? {} : { head: [], border: [] };
  const table = new Table({ head: ['id', 'title', 'tags', 'levels', 'actions', 'baselines'], style });
  for (const { info } of listed) {
    table.push([
      info.id,
      info.title,
      info.tags.join(', '),
      info.baselineActions.length,
      info.availableActions.map(actionName).join(' '),
      info.baselineActions.join(' '),
    ]);
  }
  return table.toString();
}
