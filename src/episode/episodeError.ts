/** What went wrong in an episode, as episodes.jsonl keeps it: a kind to branch on, a sentence, and where. */
import { AgentContractError } from '../agent/actions.ts';
import { TransportError } from '../client/transport.ts';
import { RunFolderWriteError } from '../errors.ts';
import { ApiError } from '../protocol/index.ts';
import type { EpisodeRecord } from '../runfolder/episodeRecord.ts';
import { BaselinesUnknownError } from './gameBaselines.ts';

export function describeError(error: unknown): NonNullable<EpisodeRecord['error']> {
  if (error instanceof ApiError) return { kind: 'api', message: error.message, status: error.status, code: String(error.code) };
  if (error instanceof TransportError) return { kind: `transport_${error.kind}`, message: error.message };
  if (error instanceof AgentContractError) return { kind: 'agent_contract', message: error.message };
  if (error instanceof BaselinesUnknownError) return { kind: 'baselines_unknown', message: error.message };
  // The machine's failure (a full disk), not the agent's: the run stops in order on it.
  if (error instanceof RunFolderWriteError) return { kind: 'disk', message: error.message };
  // An exception of the agent's own code: its stack is what its author needs.
  if (error instanceof Error) return { kind: 'agent', message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }) };
  return { kind: 'agent', message: String(error) };
}
