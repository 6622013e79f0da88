/** `arcbench render <game>`: a level's first look as a PNG, for authors checking their levels. */
import { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { findPuzzleGame, levelIndexOf } from '../games/findGame.ts';
import { gridToPng } from '../games/view/gridPng.ts';

interface RenderOptions {
  level: string;
  out?: string;
  scale: string;
}

export function register(program: Command): void {
  program
    .command('render')
    .description("Write a level's first grid as a PNG in the palette of SPEC §1.")
    .argument('<game>', 'game id or slug, e.g. crat')
    .option('--level <n>', 'level number, from 1', '1')
    .option('--out <file>', 'PNG file to write (default: <slug>-level<n>.png)')
    .option('--scale <k>', 'pixels per grid cell', '8')
    .action((gameName: string, options: RenderOptions) => {
      try {
        const game = findPuzzleGame(gameName);
        const levelIndex = levelIndexOf(game, options.level);
        const scale = Number(options.scale);
        if (!Number.isInteger(scale) || scale < 1 || scale > 64) throw new Error(`--scale takes a whole number from 1 to 64, got "${options.scale}"`);
        const out = options.out ?? `${game.info.slug}-level${levelIndex + 1}.png`;
        writeFileSync(out, gridToPng(game.startAt(levelIndex).frame(), scale));
        process.stdout.write(`${out}: ${game.info.title} level ${levelIndex + 1}, ${64 * scale}×${64 * scale} pixels\n`);
      } catch (error) {
        process.stderr.write(`render: ${(error as Error).message}\n`);
        process.exit(2);
      }
    });
}
