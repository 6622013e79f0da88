/**
 * The package entry, `import … from 'arcbench'`. Agent plugins need only the first block; library users
 * who drive runs from code use the rest.
 */

// Agent plugin API. `z` is re-exported so a plugin in any folder can declare its params without its own
// copy of zod.
export { z } from 'zod';
export { defineAgent, isAgentDefinition } from './agent/defineAgent.ts';
export type { AgentDefinition, AgentDeclaration } from './agent/defineAgent.ts';
// What an agent tells the runner of itself (defineAgent's `describe`): its calls' cost, its longest decision.
export type { AgentDescription, CallEstimate, EstimateGame, HarnessFact, HarnessFacts } from './agent/description.ts';
export type { CallShape } from './agent/description.ts';
export { tokensOfChars } from './analysis/costEstimate.ts';
export { action, actionOfId, click, reset, stop, isStop, AgentContractError } from './agent/actions.ts';
export type {
  Agent,
  AgentAction,
  AgentContext,
  AgentDecision,
  EpisodeEnd,
  EpisodeOutcome,
  ResetAction,
  StepInfo,
  StopDecision,
} from './agent/contract.ts';
export type { ModelCallUsage, ModelCallRecord, UsageTotals, Pricing } from './agent/usage.ts';
export { costOfCall } from './agent/usage.ts';
export type { ModelCallTranscript, ModelCallRequest, ModelCallResponse } from './agent/transcript.ts';
export type { Rng } from './agent/rng.ts';
export { createRng } from './agent/rng.ts';

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
  nthCellNotOf,
  firstDifference,
  gridToRows,
  latestGrid,
  isCoordinate,
  actionName,
  CLICK_ACTION_ID,
  UNDO_ACTION_ID,
} from './protocol/index.ts';
// A grid as a PNG in the palette of docs/protocol.md, for agents that show frames to vision models.
export { gridToPng } from './agent/gridPng.ts';
export type { FrameResponse, ActionInput, GameAction, GameActionId, GameDescriptor, GameState, Grid, Scorecard } from './protocol/index.ts';

// Errors: every error arcbench throws on purpose has ArcbenchError as its base and a stable `code`.
export { ArcbenchError, isArcbenchError } from './errors.ts';
export { ApiError, API_ERROR_CODES } from './protocol/index.ts';
export type { ApiErrorCode } from './protocol/index.ts';
export { AnswerOutOfStepError, TransportError } from './client/transport.ts';
export type { TransportErrorKind } from './client/transport.ts';
export { AgentLoadError } from './agent/pluginLoader.ts';
export { RunNotStartedError } from './runner/runNotStarted.ts';
export { AgentProcessError } from './agent/process/agentProcess.ts';

// Running experiments from code: load (or parse) an experiment file, run it, read the results.
export { loadExperiment, parseExperiment, experimentFromFlags, ConfigError } from './runner/config/loader.ts';
export type { Experiment, ResolvedAgent, LoadOptions } from './runner/config/loader.ts';
export { experimentSchema, experimentJsonSchema } from './runner/config/schema.ts';
export type { ExperimentConfig, AgentEntry } from './runner/config/schema.ts';
export { runExperiment, RUN_FORMAT } from './runner/runExperiment.ts';
export type { RunOptions, RunResult, RunReport, AgentResult } from './runner/runExperiment.ts';
export type { EpisodeRecord } from './runfolder/episodeRecord.ts';
export { parseEpisodeLog } from './runfolder/episodeLog.ts';
export { readRunReport, runReportSchema, RunFolderError } from './runfolder/runReport.ts';
export type { TableRow, CardEntry, AttemptEntry, PlanFingerprint } from './runfolder/runReport.ts';
export { readRunFolder, currentEpisodes } from './runfolder/readRunFolder.ts';
export { runEpisodesOfFolder } from './analysis/runEpisodes.ts';
export { loadExperimentForResume } from './runner/resume/loadForResume.ts';
export type { RunFolder } from './runfolder/readRunFolder.ts';
export type { BaselineOptions, BaselineOutcome } from './runner/results/baselineComparison.ts';
// Checking a run folder and costing a plan before it runs.
export { verifyRunFolder } from './runner/results/verifyRun.ts';
export type { VerifyResult } from './runner/results/verifyRun.ts';
export { estimatePlan, EstimateOverBudgetError } from './runner/planEstimate.ts';
export type { PlanEstimate } from './runner/planEstimate.ts';
export type { PlanCostEstimate, AgentCostEstimate } from './analysis/costEstimate.ts';

// Statistics and comparisons: pure functions over run folders read as above.
export { compareRuns, RunsNotComparableError } from './analysis/compareRuns.ts';
export type { RunComparison, ComparisonRow, Verdict, CompareOptions } from './analysis/compareRuns.ts';
export { comparisonDocument, regressions, COMPARISON_FORMAT } from './analysis/gate.ts';
export type { ComparisonDocument, GateSettings } from './analysis/gate.ts';
export { meanEstimate, stratifiedEstimate, meanStratum, differenceOfMeansStratum } from './analysis/bootstrap.ts';
export type { Estimate, Interval, BootstrapOptions } from './analysis/bootstrap.ts';
export type { RunEpisodes, ScoredEpisode } from './analysis/episodeSample.ts';
// Recordings, plain (.recording.jsonl) or gzip (.recording.jsonl.gz), read back line by line or whole.
export { readRecording, readRecordingText, isRecordingFileName } from './recording/recordingReader.ts';
export type { RecordingEntry, RecordedFrame } from './recording/recordingReader.ts';
// The report: report.html of a run folder, and the `view` server.
export { writeReport } from './report/writeReport.ts';
export type { ReportOptions, WrittenReport } from './report/writeReport.ts';
export { BUILT_IN_AGENTS, loadAgent } from './agent/pluginLoader.ts';
