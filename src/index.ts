/**
 * The package entry, `import … from 'arcbench'`. Agent plugins need only the first block; library users
 * who drive runs from code use the rest.
 */

// Agent plugin API. `z` is re-exported so a plugin in any folder can declare its params without its own
// copy of zod.
export { z } from 'zod';
export { defineAgent, isAgentDefinition, action, click, reset, stop, isStop } from './runner/agentApi.ts';
export type {
  Agent,
  AgentAction,
  AgentContext,
  AgentDecision,
  AgentDefinition,
  EpisodeEnd,
  EpisodeOutcome,
  ResetAction,
  StepInfo,
  StopDecision,
} from './runner/agentApi.ts';
export type { Rng } from './runner/rng.ts';
export { createRng } from './runner/rng.ts';

// What agents read: frames, grids, actions, descriptors.
export {
  GRID_SIZE,
  GRID_CELLS,
  PALETTE_HEX,
  cellIndex,
  gridHash,
  gridsEqual,
  colourCounts,
  dominantColour,
  wordsOf,
  firstDifference,
  gridToRows,
  makeAction,
  actionName,
  CLICK_ACTION_ID,
  UNDO_ACTION_ID,
} from './protocol/index.ts';
// A grid as a PNG in the SPEC palette, for agents that show frames to vision models.
export { gridToPng } from './games/view/gridPng.ts';
export type { FrameResponse, ActionInput, GameAction, GameActionId, GameDescriptor, GameState, Grid, Scorecard } from './protocol/index.ts';

// Running experiments from code: load (or parse) an experiment file, run it, read the results.
export { loadExperiment, parseExperiment, ConfigError } from './runner/configLoader.ts';
export type { Experiment, ResolvedAgent, LoadOptions } from './runner/configLoader.ts';
export { experimentSchema, experimentJsonSchema } from './runner/configSchema.ts';
export type { ExperimentConfig, AgentEntry } from './runner/configSchema.ts';
export { runExperiment, RUN_FORMAT } from './runner/runExperiment.ts';
export type { RunOptions, RunResult, RunReport, AgentResult } from './runner/runExperiment.ts';
export type { EpisodeRecord } from './runner/episode.ts';
export { parseEpisodeLog } from './runner/episodeLog.ts';
export { BUILT_IN_AGENTS, loadAgent } from './runner/agentLoader.ts';
