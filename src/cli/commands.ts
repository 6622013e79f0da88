/** Every CLI command module; one file per command, each exporting `register(program)`. */
import type { Command } from 'commander';

export interface CommandModule {
  register(program: Command): void;
}

export const commandModules: CommandModule[] = [];
