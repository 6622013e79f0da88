import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ARCBENCH_BIN } from './support/arcbenchProcess.ts';

const cli = ARCBENCH_BIN;
const arcbench = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('arcbench command line', () => {
  it('lists every command in its help and exits 0', () => {
    const result = arcbench('--help');
    expect(result.status).toBe(0);
    for (const command of ['run', 'compare', 'validate', 'plan', 'schema', 'serve', 'games', 'play', 'render', 'init']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it('exits 2 on a usage error, in the program and in a command', () => {
    const unknown = arcbench('nope');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'nope'/);
    // A name every object inherits is no command either (it once crashed: "module.register is not a function").
    const inherited = arcbench('constructor');
    expect(inherited.status).toBe(2);
    expect(inherited.stderr).toMatch(/unknown command 'constructor'/);
    const badOption = arcbench('serve', '--port', 'abc');
    expect(badOption.status).toBe(2);
    expect(badOption.stderr).toMatch(/port/);
    const missingArgument = arcbench('run');
    expect(missingArgument.status).toBe(2);
    expect(missingArgument.stderr).toMatch(/give an experiment file \(e\.g\. configs\/quickstart\.yaml\), or --agent for a first try/);
  });

  it.each([
    [['run', 'x.yaml', '--concurrency', '0'], '--concurrency takes a whole number from 1 to 1024, got "0"'],
    [['run', 'x.yaml', '--seed', '1.5'], '--seed takes a whole number from 0 to 4294967295, got "1.5"'],
    [['plan', 'x.yaml', '--seed', '0x10'], '--seed takes a whole number from 0 to 4294967295, got "0x10"'],
    [['plan', 'x.yaml', '--seed', ''], '--seed takes a whole number from 0 to 4294967295, got ""'],
    [['serve', '--port', '70000'], '--port takes a whole number from 0 to 65535, got "70000"'],
    [['serve', '--backends', '2e1'], '--backends takes a whole number from 1 to 64, got "2e1"'],
    [['render', 'crat', '--level', '-1'], '--level takes a whole number from 1 to 254, got "-1"'],
  ])('reads whole-number options with one parser and one sentence: %j', (args, sentence) => {
    const result = arcbench(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(sentence);
  });

  it('prints a command help with exit 0', () => {
    const result = arcbench('run', '--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage: arcbench run \[options\] \[config\]/);
    // The first try the README shows (`arcbench run --agent random --game crat`) is in the help too.
    expect(result.stdout).toMatch(/^ {2}--agent <list> /m);
    expect(result.stdout).toMatch(/^ {2}--game <list> /m);
  });
});
