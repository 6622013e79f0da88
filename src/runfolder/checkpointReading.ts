/**
 * A checkpoint file read back, through its schema: the file decides whether a resume sends an action
 * again, so a file whose fields are not what the writer (checkpointFile.ts) writes is unreadable, like
 * one cut short by a kill, and its episode starts over from a new RESET. Why it is unreadable is kept,
 * naming the field, for the episode's record.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { decodeFrameResponse, ISSUE_OPTIONS, isCoordinate, isGameId, issueLines } from '../protocol/index.ts';
import type { StoredCheckpoint } from './checkpointFile.ts';
import { callJournalPath, readUnsettledCalls } from './callJournal.ts';
import { CHECKPOINTS_FOLDER, checkpointFileName } from './fileNames.ts';
import { recordedRunSchema } from './readRunFolder.ts';
import { modelCallSchema, usageSchema } from './runReport.ts';

/** The version of the file's shape; a resume ignores checkpoints of another (and plays those episodes again). */
export const CHECKPOINT_FORMAT = 1;

const count = z.int().min(0);
const coordinate = z.int().refine(isCoordinate, 'a cell coordinate is a whole number 0..63');

const headShape = {
  format: z.literal(CHECKPOINT_FORMAT),
  agent: z.string(),
  game_id: z.string().refine(isGameId, 'not a game id'),
  episode: count,
  seed: z.int(),
  attempt: z.int().min(1),
  target: z.string(),
  not_continuable: z.string().optional(),
  card_id: z.string(),
  guid: z.string(),
  recording: z.string().nullable(),
  started_at: z.string(),
  win_levels: count,
  baselines: z.array(z.number().min(0)),
  baselines_known: z.boolean(),
  step: count,
  written_at: z.string(),
  seal: z.int().optional(),
  seal_end: z.int().optional(),
};

/** A saved action: RESET, a plain game action, or a click with its cell. */
const savedActionSchema = z.union([
  z.object({ id: z.literal(0), reasoning: z.unknown().optional() }),
  z.object({ id: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(7)]), reasoning: z.unknown().optional() }),
  z.object({ id: z.literal(6), x: coordinate, y: coordinate, reasoning: z.unknown().optional() }),
]);

/** The last answer as the service sent it: the frame a continued agent sees first. */
const frameTextSchema = z.string().refine((text) => {
  try {
    decodeFrameResponse(text);
    return true;
  } catch {
    return false;
  }
}, 'not a frame as the service sends it');

const continuableSchema = z.looseObject({
  ...headShape,
  continuable: z.literal(true),
  frame: frameTextSchema,
  ledger: z.object({ runs: z.array(recordedRunSchema.extend({ actions_on_level: count })) }),
  usage: usageSchema,
  model_calls: z.array(modelCallSchema),
  snapshot: z.unknown(),
  recording_lines: count,
  pending: z.object({ action: savedActionSchema, snapshot: z.unknown() }).optional(),
});

// Nothing continues from it: its head is checked, anything else it holds passes unchecked.
const inFlightSchema = z.looseObject({ ...headShape, continuable: z.literal(false) });

const checkpointSchema = z.discriminatedUnion('continuable', [continuableSchema, inFlightSchema]);

/** A checkpoint file's text read: the checkpoint, or why it cannot be used. */
export type CheckpointReading = { readonly checkpoint: StoredCheckpoint } | { readonly unreadable: string };

export function readCheckpointText(text: string): CheckpointReading {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { unreadable: 'it is not whole JSON (a write cut short by a kill)' };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { unreadable: 'it is not a JSON object' };
  const { seal, seal_end: sealEnd, format } = raw as { seal?: unknown; seal_end?: unknown; format?: unknown };
  if (seal !== sealEnd) return { unreadable: `its last write was cut short by a kill (it opens with write ${String(seal)} and ends with ${String(sealEnd)})` };
  if (format !== CHECKPOINT_FORMAT) return { unreadable: `it is of another format (${String(format)})` };
  const parsed = checkpointSchema.safeParse(raw, ISSUE_OPTIONS);
  if (!parsed.success) return { unreadable: `it is not a checkpoint this arcbench writes: ${issueLines(parsed.error.issues).join('; ')}` };
  // The schema checks what the interfaces state; they keep the words (checkpointFile.ts).
  return { checkpoint: parsed.data as unknown as StoredCheckpoint };
}

/** A checkpoint file the folder holds that cannot be used, and why. */
export interface UnreadableCheckpoint {
  /** The file's name in checkpoints/. */
  readonly file: string;
  readonly reason: string;
}

/** The checkpoints of a run folder, and its files that cannot be used. */
export function readCheckpointFolder(runDir: string): { checkpoints: StoredCheckpoint[]; unreadable: UnreadableCheckpoint[] } {
  const folder = join(runDir, CHECKPOINTS_FOLDER);
  const checkpoints: StoredCheckpoint[] = [];
  const unreadable: UnreadableCheckpoint[] = [];
  if (!existsSync(folder)) return { checkpoints, unreadable };
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.json')) continue;
    const reading = readCheckpointFile(runDir, file);
    if ('checkpoint' in reading) checkpoints.push(reading.checkpoint);
    else unreadable.push({ file, reason: reading.unreadable });
  }
  return { checkpoints, unreadable };
}

/** One file of checkpoints/, by name; its reason when unreadable names the file. */
export function readCheckpointFile(runDir: string, file: string): CheckpointReading {
  const path = join(runDir, CHECKPOINTS_FOLDER, file);
  const reading = readCheckpointText(readFileSync(path, 'utf8'));
  if (!('checkpoint' in reading)) return { unreadable: `its checkpoint ${CHECKPOINTS_FOLDER}/${file} cannot be used: ${reading.unreadable}` };
  const { checkpoint } = reading;
  if (!checkpoint.continuable) return reading;
  return { checkpoint: { ...checkpoint, unsettled_calls: readUnsettledCalls(path, checkpoint.model_calls.length) } };
}

/** What names an episode's checkpoint among the folder's files (an unreadable file's `file`), for matching the two. */
export function checkpointFileOf(gameId: string, agentLabel: string, episode: number): string {
  return checkpointFileName(gameId, agentLabel, episode);
}

/** An episode's checkpoint, or `absent` when the folder holds none of it. */
export function readEpisodeCheckpoint(runDir: string, gameId: string, agentLabel: string, episode: number): CheckpointReading | 'absent' {
  const file = checkpointFileName(gameId, agentLabel, episode);
  return existsSync(join(runDir, CHECKPOINTS_FOLDER, file)) ? readCheckpointFile(runDir, file) : 'absent';
}

/** Removes one file of checkpoints/ (a finished episode's, or one that cannot be used). */
export function removeCheckpointFile(runDir: string, file: string): void {
  rmSync(join(runDir, CHECKPOINTS_FOLDER, file), { force: true });
  rmSync(callJournalPath(join(runDir, CHECKPOINTS_FOLDER, file)), { force: true });
}
