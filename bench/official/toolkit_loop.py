"""The official toolkit's side of the official-games bench (bench/officialGames.ts), run with the real
arcengine and arc_agi on PYTHONPATH.

`local <dir> <steps> <game>…`: each game stepped by the toolkit's own local environment (Arcade offline,
make, step) in a bare loop, the same actions arcbench is sent (bench/officialGames.ts says which); prints
{"steps", "seconds"} on stdout. `serve <dir> <port>`: the toolkit's own Flask server on 127.0.0.1."""

import json
import logging
import sys
import time

# The toolkit logs to stdout (its handler takes sys.stdout on import): the answer keeps stdout for itself.
answer, sys.stdout = sys.stdout, sys.stderr

from arc_agi import Arcade  # noqa: E402
from arc_agi.base import OperationMode  # noqa: E402
from arcengine import GameAction, GameState  # noqa: E402

QUIET = logging.getLogger("bench-toolkit")
QUIET.setLevel(logging.CRITICAL)
FINISHED = (GameState.WIN, GameState.GAME_OVER)


def step_action(index, available):
    """The index-th action of the workload: the game's actions in turn, a click at a moving cell."""
    ident = available[index % len(available)]
    data = {"x": (index * 7) % 64, "y": (index * 13) % 64} if ident == 6 else {}
    return GameAction.from_id(ident), data


def local(folder, steps, games):
    arc = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=folder, logger=QUIET)
    envs = [arc.make(game, seed=0) for game in games]
    done = 0
    started = time.perf_counter()
    for env in envs:
        raw = env.observation_space
        available = list(raw.available_actions)
        for index in range(steps):
            raw = env.reset() if raw.state in FINISHED else env.step(*step_action(index, available))
            done += 1
    seconds = time.perf_counter() - started
    json.dump({"steps": done, "seconds": seconds}, answer)


def serve(folder, port):
    arc = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=folder, logger=QUIET)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    arc.listen_and_serve(host="127.0.0.1", port=port)


if sys.argv[1] == "local":
    local(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
else:
    serve(sys.argv[2], int(sys.argv[3]))
