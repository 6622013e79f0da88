/** The comparison options `compare` and `run --baseline` share: how the gate reads and what it fails. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_THRESHOLD } from '../analysis/gate.ts';

export interface GateCommandOptions {
  failOnRegression?: boolean;
  threshold?: number;
  perGame?: boolean;
}

function pointsOption(value: string): number {
  const points = Number(value);
  if (value.trim() === '' || !Number.isFinite(points) || points < 0) {
    throw new InvalidArgumentError('--threshold takes score points, a number ≥ 0 (e.g. 2 or 0.5)');
  }
  return points;
}

export function addGateOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--fail-on-regression', 'exit 1 when an agent’s total (with --per-game, also a game) got worse with its whole 95% interval below −threshold'),
    )
    .addOption(
      new Option(
        '--threshold <points>',
        `score points a regression must exceed (default ${DEFAULT_THRESHOLD}: a smaller drift of a deterministic agent is not worth a red build; 0 fails on any)`,
      ).argParser(pointsOption),
    )
    .addOption(new Option('--per-game', 'show every game, not only agent totals; the gate then counts games too'));
}
