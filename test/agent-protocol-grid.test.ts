/**
 * The protocol's grid encoding (4096 hex digits, docs/agent-protocol.md §3), as properties: encode and
 * decode are inverse, anything else is refused with a sentence, a frame line carries its grids so; and
 * the Python layer's decoder (run in a real python3) reads every grid as arcbench wrote it.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHexGrid, encodeHexGrid, HexGridError } from '../src/agent/process/hexGrid.ts';
import { frameJson, frameLine } from '../src/agent/process/protocolMessages.ts';
import { type FrameResponse, GRID_CELLS } from '../src/protocol/index.ts';

const gridArbitrary = fc.uint8Array({ minLength: GRID_CELLS, maxLength: GRID_CELLS, max: 15 });

/** A frame of a game in play after ACTION1, with these grids and this reasoning. */
function playingFrame(grids: Uint8Array[], reasoning: string): FrameResponse {
  return {
    game_id: 'crat-a280ea19',
    guid: 'g',
    frame: grids,
    state: 'NOT_FINISHED',
    levels_completed: 0,
    win_levels: 3,
    action_input: { id: 1, data: {}, reasoning },
    available_actions: [1, 2],
    full_reset: false,
  };
}

describe('hex grids', () => {
  it('decode(encode(grid)) is the grid; the text is 4096 lowercase hex digits', () => {
    fc.assert(
      fc.property(gridArbitrary, (grid) => {
        const text = encodeHexGrid(grid);
        expect(text).toMatch(/^[0-9a-f]{4096}$/);
        expect(decodeHexGrid(text)).toEqual(grid);
        expect(decodeHexGrid(text.toUpperCase())).toEqual(grid);
      }),
    );
  });

  it('refuses a text of another length or with a character that is not a hex digit, saying which', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), (text) => {
        fc.pre(!/^[0-9a-fA-F]{4096}$/.test(text));
        expect(() => decodeHexGrid(text)).toThrow(HexGridError);
      }),
    );
    fc.assert(
      fc.property(gridArbitrary, fc.nat(GRID_CELLS - 1), fc.constantFrom('g', ' ', '-', 'é', '\n', 'Z'), (grid, at, bad) => {
        const text = encodeHexGrid(grid);
        const broken = text.slice(0, at) + bad + text.slice(at + 1);
        expect(() => decodeHexGrid(broken)).toThrow(`character ${at} of a grid is ${JSON.stringify(bad)}, not a hex digit`);
      }),
    );
  });

  it('refuses to encode a colour above 15 or a grid of another size', () => {
    fc.assert(
      fc.property(gridArbitrary, fc.nat(GRID_CELLS - 1), fc.integer({ min: 16, max: 255 }), (grid, at, colour) => {
        grid[at] = colour;
        expect(() => encodeHexGrid(grid)).toThrow(`cell ${at} holds colour ${colour}`);
      }),
    );
    expect(() => encodeHexGrid(new Uint8Array(10))).toThrow(HexGridError);
  });

  it('a frame line is JSON whose grids decode to the frame', () => {
    fc.assert(
      fc.property(fc.array(gridArbitrary, { minLength: 1, maxLength: 3 }), fc.string(), (grids, reasoning) => {
        const line = frameJson(playingFrame(grids, reasoning));
        const parsed = JSON.parse(line) as { grids: string[]; action_input: { reasoning: string } };
        expect(parsed.grids.map(decodeHexGrid)).toEqual(grids);
        expect(parsed.action_input.reasoning).toBe(reasoning);
      }),
      { numRuns: 50 },
    );
  });

  it('a frame request, written into one buffer, is the JSON line of its counters and frame, whatever the reasoning spells', () => {
    fc.assert(
      fc.property(fc.array(gridArbitrary, { maxLength: 3 }), fc.string({ unit: 'grapheme' }), fc.nat(), (grids, reasoning, step) => {
        const frame = playingFrame(grids, reasoning);
        const line = frameLine({ step, actions: step, levelActions: 0 }, frame).toString('utf8');
        expect(line.endsWith('}\n') && line.indexOf('\n') === line.length - 1).toBe(true);
        expect(JSON.parse(line)).toEqual({ type: 'frame', step, actions: step, level_actions: 0, frame: JSON.parse(frameJson(frame)) });
      }),
      { numRuns: 50 },
    );
  });

  it("the Python layer's decoder reads what arcbench encodes, and refuses what arcbench refuses", () => {
    const grids = fc.sample(gridArbitrary, 40);
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(join(import.meta.dirname, '..', 'python'))})`,
      'from arcbench_agent.grids import decode_grid, encode_grid',
      'out = []',
      'for text in json.load(sys.stdin):',
      '    try:',
      '        rows = decode_grid(text)',
      '        assert encode_grid(rows) == text.lower()',
      '        out.append([cell for row in rows for cell in row])',
      '    except ValueError as error:',
      '        out.append(str(error))',
      'json.dump(out, sys.stdout)',
    ].join('\n');
    const bad = ['', 'g'.repeat(GRID_CELLS), '0'.repeat(GRID_CELLS - 1), `${'0'.repeat(GRID_CELLS - 1)}é`, `${'1'.repeat(GRID_CELLS - 1)}\u0005`];
    const input = [...grids.map(encodeHexGrid), ...bad];
    const answer = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(input), encoding: 'utf8' })) as (number[] | string)[];
    expect(answer.slice(0, grids.length)).toEqual(grids.map((grid) => [...grid]));
    for (const refusal of answer.slice(grids.length))
      expect(refusal).toMatch(/^a grid (is a string of 4096 hex digits|holds a character that is not a hex digit)/);
  });
});
