/**
 * Every CLI command: one file per command, each exporting `register(program)`. Modules load lazily,
 * because some pull in heavy dependencies (the server brings fastify) and a command should start
 * without paying for the others.
 */
import type { Command } from 'commander';

export interface CommandModule {
  register(program: Command): void;
}

const commandLoaders: Record<string, () => Promise<CommandModule>> = {
  run: () => import('./run.ts'),
  worker: () => import('./worker.ts'),
  merge: () => import('./merge.ts'),
  resume: () => import('./resume.ts'),
  compare: () => import('./compare.ts'),
  validate: () => import('./validate.ts'),
  plan: () => import('./plan.ts'),
  schema: () => import('./schema.ts'),
  serve: () => import('./serve.ts'),
  games: () => import('./games.ts'),
  play: () => import('./play.ts'),
  render: () => import('./render.ts'),
  init: () => import('./init.ts'),
  report: () => import('./report.ts'),
  view: () => import('./view.ts'),
  verify: () => import('./verify.ts'),
  export: () => import('./export.ts'),
  'model-server': () => import('./modelServer.ts'),
};

/** The modules to register: only the named command's when argv names one, else all (for help). */
export async function loadCommandModules(argv: readonly string[]): Promise<CommandModule[]> {
  const named = argv.find((arg) => !arg.startsWith('-'));
  // An own key only: `in` also finds what every object inherits (`arcbench constructor` would load Object).
  const load = named !== undefined && Object.hasOwn(commandLoaders, named) ? commandLoaders[named] : undefined;
  if (load !== undefined) return [await load()];
  return Promise.all(Object.values(commandLoaders).map((load) => load()));
}
