/**
 * What can go wrong with an official game, each a sentence a user can act on. The service turns the ones
 * of a play into its own error answer; the ones of loading stop a run before anything is played.
 */
import { ArcbenchError } from '../../errors.ts';

/** The host could not start: no interpreter, or no arcengine (or numpy) in it. */
export class GameEngineMissingError extends ArcbenchError {
  constructor(message: string) {
    super('GAMES_ENGINE_MISSING', message);
  }
}

/** A game file that fails to import, lacks its class, or a metadata.json that is not one. */
export class GameLoadError extends ArcbenchError {
  constructor(message: string) {
    super('GAMES_LOAD', message);
  }
}

/** A game that raised while playing; the session cannot go on. */
export class GameFaultError extends ArcbenchError {
  constructor(message: string) {
    super('GAMES_FAULT', message);
  }
}

/** The host process ended while its sessions were playing. */
export class GameHostDiedError extends ArcbenchError {
  constructor(message: string) {
    super('GAMES_HOST_DIED', message);
  }
}

export const INSTALL_ARCENGINE =
  'install it into the interpreter arcbench runs the games with (python3, or the one named by ARCBENCH_PYTHON): pip install arcengine';
