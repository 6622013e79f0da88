/**
 * An agent's `restore` cannot put its state back (a process agent whose state could not be
 * snapshotted, say): the episode cannot be continued and is played again from a new RESET, this
 * sentence in its record's `restarted`. Any other error from `restore` fails the episode.
 */
import { ArcbenchError } from '../errors.ts';

export class UnrestorableStateError extends ArcbenchError {
  constructor(message: string) {
    super('AGENT_STATE_UNRESTORABLE', message);
  }
}
