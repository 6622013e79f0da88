"""Plays action lists through the official toolkit's own local environment (arc_agi.Arcade, offline), to
compare arcbench's frames and scores with. Reads {"dir", "seed", "plays": [{"game", "actions": [[id, x, y]…]}]}
on stdin (id 0 is RESET); writes {"frames": {game: [frame…]}, "scorecard": …} on stdout. With "url" in the
request, the same Arcade plays as a client of that service instead (ONLINE mode), as a user of the toolkit would."""

import json
import logging
import sys

# The toolkit logs to stdout (its handler takes sys.stdout on import): the answer keeps stdout for itself.
answer, sys.stdout = sys.stdout, sys.stderr

from arc_agi import Arcade
from arc_agi.base import OperationMode
from arcengine import GameAction


def frame(raw):
    cells = [bytes(bytearray(int(v) for v in grid.flatten())).hex()[1::2] for grid in raw.frame]
    return {
        "frame": cells,
        "state": raw.state.name,
        "levels_completed": raw.levels_completed,
        "win_levels": raw.win_levels,
        "available_actions": list(raw.available_actions),
        "full_reset": raw.full_reset,
    }


def main():
    request = json.load(sys.stdin)
    quiet = logging.getLogger("toolkit-play")
    quiet.setLevel(logging.CRITICAL)
    if "url" in request:
        arc = Arcade(arc_api_key="toolkit-client", arc_base_url=request["url"], operation_mode=OperationMode.ONLINE, logger=quiet)
    else:
        arc = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=request["dir"], logger=quiet)
    card = arc.open_scorecard()
    frames = {}
    for play in request["plays"]:
        env = arc.make(play["game"], seed=request["seed"], scorecard_id=card)
        seen = [frame(env.observation_space)]
        for ident, x, y in play["actions"]:
            if ident == 0:
                raw = env.reset()
            else:
                raw = env.step(GameAction.from_id(ident), data={"x": x, "y": y} if ident == 6 else {})
            seen.append(frame(raw))
        frames[play["game"]] = seen
    scorecard = arc.close_scorecard(card)
    json.dump({"frames": frames, "scorecard": scorecard.model_dump(mode="json")}, answer)


main()
