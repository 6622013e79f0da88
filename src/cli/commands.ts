/** Every CLI command module; one file per command, each exporting `register(program)`. */
import type { Command } from 'commander';
import * as serve from './serve.ts';

export interface CommandModule {
  register(program: Command): void;
}

export const commandModules: CommandModule[] = [serve];
