/**
 * What every command shares and nothing heavy: exit codes and the whole-number option parser. (How a
 * failure is reported lives in reportFailure.ts, since it knows the config and plugin errors, and
 * `serve` should not load the config loader to parse its port.)
 */
import { InvalidArgumentError, Option } from 'commander';
import { MAX_LEVEL_COUNTER } from '../protocol/limits.ts';

export const EXIT_OK = 0;
/** Some episode or a scorecard close failed. */
export const EXIT_FAILED = 1;
/** Bad config or usage (a used or changed run folder included), or a run that could not start (the key refused, the service out of reach). */
export const EXIT_USAGE = 2;
/** The run stopped before every planned episode was played (its run_seconds or its dollar budget, status `partial`); a resume plays the rest. */
export const EXIT_PARTIAL = 3;

/**
 * The one parser of whole-number options (commander's argParser): decimal digits only, so that "",
 * "1.5", "2e1" and "0x10" are refused rather than read as the numbers JavaScript would make of them.
 */
export function integerOption(flag: string, min: number, max: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\s*-?\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${flag} takes a whole number from ${min} to ${max}, got "${text}"`);
    }
    return value;
  };
}

/**
 * `--level <n>` of play and render: a level number from 1. Whether the game has that level is the
 * game's to say; the bound here is the most levels a frame response can count.
 */
export function levelOption(description: string): Option {
  return new Option('--level <n>', description).default(1).argParser(integerOption('--level', 1, MAX_LEVEL_COUNTER));
}
