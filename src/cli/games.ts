/** `arcbench games`: the catalog of original games, as a table or as JSON. */
import Table from 'cli-table3';
import type { Command } from 'commander';
import { actionName } from '../protocol/index.ts';
import { puzzleCatalog } from '../games/puzzleCatalog.ts';
import { colourWanted } from './colour.ts';

export function register(program: Command): void {
  program
    .command('games')
    .description('List the original games of the reference service: id, title, input kind, levels, actions.')
    .option('--json', "print the game descriptors as JSON (the field names of the service's game list, with levels and step budgets added) instead of a table")
    .addHelpText('after', '\nThe table has a coloured header on a terminal; piped, or with NO_COLOR set, it is plain text.')
    .action((options: { json?: boolean }) => {
      process.stdout.write(options.json === true ? `${gamesAsJson()}\n` : `${gamesAsTable()}\n`);
    });
}

function gamesAsJson(): string {
  const descriptors = puzzleCatalog().map(({ info, stepBudgets }) => ({
    game_id: info.id,
    title: info.title,
    tags: info.tags,
    default_fps: info.defaultFps,
    available_actions: info.availableActions,
    baseline_actions: info.baselineActions,
    levels: info.baselineActions.length,
    step_budgets: stepBudgets,
  }));
  return JSON.stringify(descriptors, null, 2);
}

function gamesAsTable(): string {
  // cli-table3 colours its header and borders unless told to use no style.
  const style = colourWanted(process.stdout) ? {} : { head: [], border: [] };
  const table = new Table({ head: ['id', 'title', 'tags', 'levels', 'actions', 'baselines'], style });
  for (const { info } of puzzleCatalog()) {
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
