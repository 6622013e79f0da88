/**
 * The Python layer's stand-ins for `arcengine` and `agents` against the public interface official
 * agents use, checked in a real python3 (test/fixtures/python-checks/compat_surface.py).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PYTHON_LAYER = join(import.meta.dirname, '..', 'python');

describe('the compatibility layer', () => {
  it('has the surface of arcengine and agents.agent that official agents touch', () => {
    const script = join(import.meta.dirname, 'fixtures', 'python-checks', 'compat_surface.py');
    const output = execFileSync('python3', [script], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: [PYTHON_LAYER, join(PYTHON_LAYER, 'compat')].join(':'), PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(output.trim()).toBe('ok');
  });
});
