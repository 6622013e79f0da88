# The bench's agent that imports the real arcengine (numpy, pydantic), as an agent written for the
# official harness does when the package is installed: the bench puts arcengine-0.9.3 on PYTHONPATH
# and this file refuses to load with arcbench's stand-in, so its figure is the real import's.
import random

import arcengine
from agents.agent import Agent
from arcengine import ARCBaseGame, GameAction, GameState  # noqa: F401  ARCBaseGame: only the real one has it

if not hasattr(arcengine, "ARCBaseGame"):
    raise ImportError("this bench agent needs the real arcengine on PYTHONPATH")


class RealEngine(Agent):
    def is_done(self, frames, latest_frame):
        return latest_frame.state is GameState.WIN

    def choose_action(self, frames, latest_frame):
        if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER):
            return GameAction.RESET
        return GameAction.from_id(random.choice(latest_frame.available_actions))
