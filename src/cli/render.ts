/** `arcbench render <game>`: a level's first look as a PNG, for authors checking their levels. */
import { type Command, Option } from 'commander';
import { writeFileSync } from 'node:fs';
import { GRID_SIZE } from '../protocol/index.ts';
import { findPuzzleGame, levelIndexOf } from '../games/findGame.ts';
import { gridToPng } from '../agent/gridPng.ts';
import { integerOption, levelOption } from './commandSupport.ts';

interface RenderOptions {
  level: number;
  out?: string;
  scale: number;
}

export function register(program: Command): void {
  program
    .command('render')
    .description("Write a level's first grid as a PNG, each cell a square in its palette colour (the palette the service's grids use).")
    .argument('<game>', 'game id or slug, e.g. crat')
    .addOption(levelOption('level number, from 1'))
    .option('--out <file>', 'PNG file to write (default: <slug>-level<n>.png)')
    .addOption(new Option('--scale <k>', 'pixels per grid cell').default(8).argParser(integerOption('--scale', 1, 64)))
    .addHelpText('after', '\nIt prints one line, the file written, with no colour codes.')
    .action((gameName: string, options: RenderOptions) => {
      try {
        const game = findPuzzleGame(gameName);
        const levelIndex = levelIndexOf(game, options.level);
        const out = options.out ?? `${game.info.slug}-level${levelIndex + 1}.png`;
        writeFileSync(out, gridToPng(game.startAt(levelIndex).frame(), options.scale));
        const side = GRID_SIZE * options.scale;
        process.stdout.write(`${out}: ${game.info.title} level ${levelIndex + 1}, ${side}×${side} pixels\n`);
      } catch (error) {
        process.stderr.write(`render: ${(error as Error).message}\n`);
        process.exit(2);
      }
    });
}
