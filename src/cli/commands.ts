/** Every CLI command module; one file per command, each exporting `register(program)`. */
import type { Command } from 'commander';
import * as serve from './serve.ts';
import * as run from './run.ts';
import * as validate from './validate.ts';
import * as plan from './plan.ts';
import * as schema from './schema.ts';
import * as games from './games.ts';
import * as play from './play.ts';
import * as render from './render.ts';

export interface CommandModule {
  register(program: Command): void;
}

export const commandModules: CommandModule[] = [serve, run, validate, plan, schema, games, play, render];
