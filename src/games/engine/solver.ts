/**
 * Optimal solutions, as proof that a level is solvable and as the basis of its baseline. Breadth-first
 * search over the definition's own `apply`, so the solver and the game cannot disagree on the rules.
 */
import type { Move, PuzzleDefinition } from './definition.ts';

export interface Solution {
  readonly moves: readonly Move[];
  /** States the search visited: how hard the level is for a machine, and a guard on test time. */
  readonly statesVisited: number;
}

export function solveLevel<Level, State>(definition: PuzzleDefinition<Level, State>, level: Level, maxStates = 2_000_000): Solution {
  if (definition.solveOptimally) return { moves: definition.solveOptimally(level), statesVisited: 0 };
  return breadthFirstSolve(definition, level, maxStates);
}

function breadthFirstSolve<Level, State>(definition: PuzzleDefinition<Level, State>, level: Level, maxStates: number): Solution {
  const start = definition.initialState(level);
  // Parent links instead of stored paths: one number and one move per visited state.
  const parents: number[] = [-1];
  const viaMoves: (Move | null)[] = [null];
  const states: State[] = [start];
  const seen = new Map<string, number>([[definition.stateKey(start), 0]]);
  for (let head = 0; head < states.length; head++) {
    const state = states[head]!;
    for (const move of definition.solverMoves(level, state)) {
      const next = definition.cloneState(state);
      const effect = definition.apply(level, next, move, null);
      if (effect === 'none' || effect === 'lost') continue;
      if (effect === 'solved') {
        const moves: Move[] = [{ ...move }];
        for (let at = head; parents[at] !== -1; at = parents[at]!) moves.push(viaMoves[at] as Move);
        return { moves: moves.reverse(), statesVisited: states.length };
      }
      const key = definition.stateKey(next);
      if (seen.has(key)) continue;
      seen.set(key, states.length);
      states.push(next);
      parents.push(head);
      viaMoves.push({ ...move });
      if (states.length > maxStates) throw new Error(`level search passed ${maxStates} states; make the level smaller`);
    }
    // Expanded states are not needed again; dropping them keeps memory to the frontier.
    (states as (State | undefined)[])[head] = undefined;
  }
  throw new Error(`level has no solution: every reachable state (${states.length}) was searched`);
}
