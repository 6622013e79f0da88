/**
 * Recordings on the page: fetched from the `view` server as text, or decoded from the report file
 * (base64 of gzip, in a `<script>` of their own, decompressed with the browser's DecompressionStream),
 * then parsed into steps with one Uint8Array per grid, as the project draws grids everywhere.
 */
import { EMBEDDED_RECORDING_ATTRIBUTE, type RecordingSource } from '../pageData.ts';

export interface ReplayAction {
  id: number;
  x?: number;
  y?: number;
  reasoning?: unknown;
}

/** One line of the recording: the answer to one action (step 0: the RESET that began the session). */
export interface ReplayStep {
  timestamp: string;
  grids: Uint8Array[];
  state: string;
  levelsCompleted: number;
  winLevels: number;
  action: ReplayAction;
  fullReset: boolean;
}

export interface Recording {
  gameId: string;
  steps: ReplayStep[];
}

const CELLS = 64 * 64;

/** The recording's text, or a sentence saying why it cannot be had here. */
export async function loadRecordingText(source: RecordingSource, path: string): Promise<string> {
  if (source.kind === 'served') {
    const response = await fetch(`${source.base_url}${path.split('/').map(encodeURIComponent).join('/')}`, { cache: 'no-store' });
    if (!response.ok) throw new Error(`the server answered ${response.status} for ${path}`);
    return response.text();
  }
  const holder = [...document.querySelectorAll(`script[${EMBEDDED_RECORDING_ATTRIBUTE}]`)].find(
    (node) => node.getAttribute(EMBEDDED_RECORDING_ATTRIBUTE) === path,
  );
  if (holder === undefined) throw new Error(`${path} is not embedded in this file`);
  return gunzipText(base64Bytes(holder.textContent ?? ''));
}

function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function gunzipText(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

export function parseRecording(text: string): Recording {
  const steps: ReplayStep[] = [];
  let gameId = '';
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as { timestamp: string; data: RecordedData };
    const data = entry.data;
    gameId ||= data.game_id;
    steps.push({
      timestamp: entry.timestamp,
      grids: data.frame.map(gridOf),
      state: data.state,
      levelsCompleted: data.levels_completed,
      winLevels: data.win_levels,
      action: actionOf(data.action_input),
      fullReset: data.full_reset,
    });
  }
  return { gameId, steps };
}

interface RecordedData {
  game_id: string;
  frame: number[][][];
  state: string;
  levels_completed: number;
  win_levels: number;
  action_input: { id: number; data?: { x?: number; y?: number }; reasoning?: unknown };
  full_reset: boolean;
}

function gridOf(rows: number[][]): Uint8Array {
  const grid = new Uint8Array(CELLS);
  for (let y = 0; y < 64; y++) {
    const row = rows[y];
    if (row === undefined) throw new Error(`a recorded grid has ${rows.length} rows, not 64`);
    for (let x = 0; x < 64; x++) grid[y * 64 + x] = row[x] ?? 0;
  }
  return grid;
}

function actionOf(input: RecordedData['action_input']): ReplayAction {
  const action: ReplayAction = { id: input.id };
  if (typeof input.data?.x === 'number' && typeof input.data?.y === 'number') {
    action.x = input.data.x;
    action.y = input.data.y;
  }
  if (input.reasoning !== undefined) action.reasoning = input.reasoning;
  return action;
}
