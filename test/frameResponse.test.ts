import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GAME_ACTION_IDS,
  decodeFrameResponse,
  encodeFrameResponse,
  frameResponseMetaSchema,
  FrameResponseDecodeError,
  GAME_STATES,
  GRID_CELLS,
  gridToRows,
  type FrameResponse,
} from '../src/protocol/index.ts';

const grid = fc.uint8Array({ minLength: GRID_CELLS, maxLength: GRID_CELLS, max: 15 });
const frameResponse: fc.Arbitrary<FrameResponse> = fc.record({
  game_id: fc.string(),
  guid: fc.uuid(),
  frame: fc.array(grid, { minLength: 1, maxLength: 3 }),
  state: fc.constantFrom(...GAME_STATES),
  levels_completed: fc.integer({ min: 0, max: 254 }),
  win_levels: fc.integer({ min: 0, max: 254 }),
  action_input: fc.record(
    { id: fc.integer({ min: 0, max: 7 }), data: fc.dictionary(fc.string(), fc.jsonValue()), reasoning: fc.option(fc.jsonValue(), { nil: undefined }) },
    { requiredKeys: ['id', 'data'] },
  ),
  available_actions: fc.array(fc.constantFrom(...GAME_ACTION_IDS), { maxLength: 7 }),
  full_reset: fc.boolean(),
});

/** The response as other servers write it: plain JSON.stringify, grids as nested arrays. */
const asPlainJson = (response: FrameResponse) => JSON.stringify({ ...response, frame: response.frame.map(gridToRows) });
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

describe('frame response codec', () => {
  it('decodes what it encodes, and what JSON.stringify writes, to the same response', () => {
    fc.assert(
      fc.property(frameResponse, (response) => {
        for (const decoded of [decodeFrameResponse(encodeFrameResponse(response)), decodeFrameResponse(asPlainJson(response))]) {
          const { frame, ...rest } = decoded;
          // JSON drops undefined members, as the wire does.
          expect(rest).toEqual(JSON.parse(JSON.stringify({ ...response, frame: undefined })));
          expect(frame.length).toBe(response.frame.length);
          for (const [i, g] of frame.entries()) expect(sameBytes(g, response.frame[i]!)).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('accepts exactly the fields its zod schema accepts, whatever a field holds', () => {
    const fields = ['game_id', 'guid', 'state', 'levels_completed', 'win_levels', 'action_input', 'available_actions', 'full_reset'] as const;
    const oddValue = fc.oneof(
      fc.jsonValue(),
      fc.integer({ min: -3, max: 300 }),
      fc.constantFrom(...GAME_STATES, 1.5, -0, null, [], {}, [1, 8], [0, 7], { id: 3 }, { id: 8, data: {} }, { id: 2, data: [] }, { id: 2, data: null }),
    );
    fc.assert(
      fc.property(frameResponse, fc.constantFrom(...fields), oddValue, fc.boolean(), (response, field, value, drop) => {
        const body = JSON.parse(asPlainJson(response)) as Record<string, unknown>;
        if (drop) delete body[field];
        else body[field] = value;
        const { frame: _frame, ...meta } = body;
        const expected = frameResponseMetaSchema.safeParse(meta).success;
        let accepted = true;
        try {
          decodeFrameResponse(JSON.stringify(body));
        } catch (error) {
          expect(error).toBeInstanceOf(FrameResponseDecodeError);
          accepted = false;
        }
        expect(accepted).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with its zod schema on every field set to every edge value', () => {
    const base = JSON.parse(
      asPlainJson({
        game_id: 'g-1',
        guid: 'u',
        frame: [new Uint8Array(GRID_CELLS)],
        state: 'NOT_FINISHED',
        levels_completed: 1,
        win_levels: 3,
        action_input: { id: 1, data: {} },
        available_actions: [1, 2],
        full_reset: false,
      }),
    ) as Record<string, unknown>;
    const edges: unknown[] = [
      undefined,
      null,
      true,
      0,
      -1,
      1.5,
      7,
      8,
      254,
      255,
      '',
      'WIN',
      'PLAYING',
      [],
      [0],
      [7],
      [8],
      [-1],
      [1.5],
      ['1'],
      {},
      { id: 0 },
      { id: 7, data: {} },
      { id: 8, data: {} },
      { id: -1 },
      { id: 1.5 },
      { id: 2, data: [] },
      { id: 2, data: null },
      { id: 2, data: 'x' },
      { id: '1' },
    ];
    for (const field of ['game_id', 'guid', 'state', 'levels_completed', 'win_levels', 'action_input', 'available_actions', 'full_reset']) {
      for (const value of edges) {
        const body = { ...base, [field]: value };
        if (value === undefined) delete body[field];
        const { frame: _frame, ...meta } = body;
        const expected = frameResponseMetaSchema.safeParse(meta).success;
        const accepted = (() => {
          try {
            decodeFrameResponse(JSON.stringify(body));
            return true;
          } catch {
            return false;
          }
        })();
        expect(accepted, `${field} = ${JSON.stringify(value)}`).toBe(expected);
      }
    }
  });

  it('finds the frame wherever it stands, and follows JSON.parse when a frame key repeats or is escaped', () => {
    const first = new Uint8Array(GRID_CELLS).fill(3);
    const second = new Uint8Array(GRID_CELLS).fill(12);
    const meta = '"game_id":"g","guid":"u","state":"WIN","levels_completed":2,"win_levels":2,"action_input":{"id":1},"available_actions":[]';
    const rows = (grid: Uint8Array) => JSON.stringify([gridToRows(grid)]);
    const cases: Array<[string, Uint8Array]> = [
      [`{"frame":${rows(first)},${meta}}`, first],
      [`{ ${meta.replace(',"state"', ` , "frame" : ${rows(first)} , "state"`)} }`, first],
      [`{${meta},"frame":${rows(first)},"frame":${rows(second)}}`, second],
      [`{${meta},"frame":${rows(first)},"fr\\u0061me":${rows(second)}}`, second],
      [`{${meta},"fr\\u0061me":${rows(second)},"frame":${rows(first)}}`, first],
    ];
    for (const [text, expected] of cases) {
      const decoded = decodeFrameResponse(text);
      expect(sameBytes(decoded.frame[0]!, expected), text.slice(0, 60)).toBe(true);
      expect(decoded).toMatchObject({ game_id: 'g', state: 'WIN', levels_completed: 2, action_input: { id: 1, data: {} }, full_reset: false });
      expect(Object.keys(decoded).filter((key) => key === 'frame')).toHaveLength(1);
    }
  });

  it('keeps fields it does not know, and a top-level __proto__ key as plain data', () => {
    const body = `{"game_id":"g","guid":"u","state":"WIN","levels_completed":0,"win_levels":0,"action_input":{"id":0},"available_actions":[],"score":7,"__proto__":{"polluted":true},"frame":${JSON.stringify([gridToRows(new Uint8Array(GRID_CELLS))])}}`;
    const decoded = decodeFrameResponse(body) as unknown as Record<string, unknown>;
    expect(decoded.score).toBe(7);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads the state NOT_STARTED, as the hosted service's OpenAPI spells it, as NOT_PLAYED", () => {
    const body = {
      game_id: 'g',
      guid: 'x',
      state: 'NOT_STARTED',
      levels_completed: 0,
      win_levels: 1,
      action_input: { id: 0 },
      available_actions: [],
      frame: [gridToRows(new Uint8Array(GRID_CELLS))],
    };
    expect(decodeFrameResponse(JSON.stringify(body)).state).toBe('NOT_PLAYED');
  });

  it('names the field that is wrong', () => {
    const body = {
      game_id: 'g',
      guid: 'x',
      state: 'PLAYING',
      levels_completed: 0,
      win_levels: 1,
      action_input: { id: 1 },
      available_actions: [],
      frame: [gridToRows(new Uint8Array(GRID_CELLS))],
    };
    expect(() => decodeFrameResponse(JSON.stringify(body))).toThrow(/frame response: state: /);
    expect(() => decodeFrameResponse(JSON.stringify({ ...body, state: 'WIN', frame: [] }))).toThrow(/frame response: frame: expected at least one grid/);
  });
});
