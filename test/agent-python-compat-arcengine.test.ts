/**
 * arcbench's stand-in arcengine (python/compat) against the real one (arcengine 0.9.3): one script of
 * what agents do with it (clicks given as "17" or 17.0, refusals, dumps, FrameDataRaw, data kept on the
 * member), run once with each on PYTHONPATH; the outputs must be the same.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonHasRealEngineDependencies, REAL_ARCENGINE } from './support/officialCode.ts';

const SCRIPT = join(import.meta.dirname, 'fixtures', 'python-checks', 'arcengine_parity.py');
const STAND_IN = join(import.meta.dirname, '..', 'python', 'compat');

const runWith = (pythonPath: string): string =>
  execFileSync('python3', [SCRIPT], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: '1' } });

describe('the stand-in arcengine', () => {
  it.skipIf(!pythonHasRealEngineDependencies())('accepts, refuses and dumps what the real arcengine does (skipped: python3 lacks numpy or pydantic)', () => {
    const real = runWith(REAL_ARCENGINE);
    expect(real).toContain("ComplexAction(x='17') -> 17");
    expect(runWith(STAND_IN)).toBe(real);
  });
});
