/**
 * Replays a recording (docs/protocol.md §9 JSONL, one frame response per line, first line the RESET answer; plain
 * or gzip-compressed) action by action, and compares every grid the service returns with the recorded
 * one. Stops at the first difference and says where it is; games are deterministic, so a difference
 * means the game changed. The recording is read line by line as the replay goes, never whole.
 */
import {
  defineAgent,
  z,
  action,
  click,
  reset,
  stop,
  readRecording,
  CLICK_ACTION_ID,
  UNDO_ACTION_ID,
  GRID_SIZE,
  type AgentDecision,
  type FrameResponse,
  type RecordedFrame,
} from 'arcbench';

/** First cell where a live grid and a recorded one differ, or undefined when every grid matches. */
function firstDifference(live: FrameResponse, recorded: RecordedFrame) {
  if (live.frame.length !== recorded.frame.length) {
    return { message: `${live.frame.length} grid(s) returned, ${recorded.frame.length} recorded` };
  }
  for (let g = 0; g < live.frame.length; g++) {
    const grid = live.frame[g]!;
    for (let y = 0; y < GRID_SIZE; y++) {
      for (let x = 0; x < GRID_SIZE; x++) {
        const expected = recorded.frame[g]?.[y]?.[x];
        const got = grid[y * GRID_SIZE + x];
        if (expected !== got) return { message: `frame[${g}] at (x ${x}, y ${y}): recorded ${expected}, got ${got}`, grid: g, x, y, expected, got };
      }
    }
  }
  if (live.state !== recorded.state) return { message: `state ${live.state}, recorded ${recorded.state}` };
  return undefined;
}

/** The recorded action as a decision; a line the recording cannot have produced stops the replay. */
function toDecision(recorded: RecordedFrame, line: number): AgentDecision {
  const { id, data, reasoning } = recorded.action_input;
  if (id === 0) return reset(reasoning);
  if (id === CLICK_ACTION_ID) return click(data?.x ?? -1, data?.y ?? -1, reasoning);
  if (id === 1 || id === 2 || id === 3 || id === 4 || id === 5 || id === UNDO_ACTION_ID) return action(id, reasoning);
  return stop(`line ${line} of the recording holds action id ${String(id)}; ids run 0..7`);
}

export default defineAgent({
  name: 'replay',
  description: 'Replays a recording and reports the first grid that differs from it.',
  // It calls no model: nothing to estimate, and every decision is quick.
  describe: () => ({ callsModel: false }),
  params: z.strictObject({
    recording: z.string().min(1).describe('Path of a .recording.jsonl or .recording.jsonl.gz file, relative to the experiment file.'),
  }),
  create({ params, resolvePath, game }) {
    const file = resolvePath(params.recording);
    const lines = readRecording(file);
    let step = 0;
    let upcoming: RecordedFrame | undefined;

    const nextRecorded = async (): Promise<RecordedFrame | undefined> => {
      const line = await lines.next();
      return line.done ? undefined : line.value.data;
    };

    return {
      async act(frame) {
        // The frame in hand answers the previously replayed line (the RESET line on the first call).
        const expected = step === 0 ? await nextRecorded() : upcoming;
        if (expected === undefined) return stop(`${file} is empty; give a recording written by arcbench run`);
        if (step === 0 && expected.game_id !== game.game_id) {
          return stop(`the recording is of ${expected.game_id}, this episode plays ${game.game_id}; set games: [${expected.game_id}]`);
        }
        const difference = firstDifference(frame, expected);
        if (difference !== undefined) return stop(`step ${step}: ${difference.message}`, { step, ...difference });
        upcoming = await nextRecorded();
        step++;
        if (upcoming === undefined) return stop(`replayed ${step - 1} action(s); every grid matched the recording`, { step: step - 1, matched: true });
        return toDecision(upcoming, step + 1);
      },
      finish() {
        void lines.return(undefined);
      },
    };
  },
});
