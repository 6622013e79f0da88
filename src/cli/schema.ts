/**
 * `arcbench schema [--out file]`: the JSON Schema of experiment files, generated from the zod schema
 * the runner validates with, for editor completion (`# yaml-language-server: $schema=…`).
 */
import { writeFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { experimentJsonSchema } from '../runner/config/schema.ts';
import { EXIT_USAGE } from './commandSupport.ts';
import { checkOutputPath, OutputPathError } from './outputPath.ts';

export function register(program: Command): void {
  program
    .command('schema')
    .description('Print the JSON Schema of experiment files (or write it with --out), for editor completion.')
    .addOption(new Option('--out <file>', 'write the schema to this file, e.g. configs/arcbench.schema.json'))
    .addHelpText('after', '\nIn a YAML file: # yaml-language-server: $schema=./arcbench.schema.json')
    .action((options: { out?: string }) => {
      const text = `${JSON.stringify(experimentJsonSchema(), null, 2)}\n`;
      if (options.out === undefined) {
        process.stdout.write(text);
        return;
      }
      try {
        checkOutputPath('--out', options.out);
      } catch (error) {
        if (!(error instanceof OutputPathError)) throw error;
        process.stderr.write(`arcbench schema: ${error.message}\n`);
        process.exit(EXIT_USAGE);
      }
      writeFileSync(options.out, text);
    });
}
