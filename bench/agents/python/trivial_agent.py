# The bench's trivial Python agent, in the official harness shape: a random available action each
# step (RESET when not playing), a random cell for clicks. Its own cost per step is tiny, so what the
# bench measures around it is the harness.
import random

from agents.agent import Agent
from arcengine import GameAction, GameState


class Trivial(Agent):
    MAX_ACTIONS = 1_000_000

    def is_done(self, frames, latest_frame):
        return latest_frame.state is GameState.WIN

    def choose_action(self, frames, latest_frame):
        if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER):
            return GameAction.RESET
        action = GameAction.from_id(random.choice(latest_frame.available_actions))
        if action.is_complex():
            action.set_data({"x": random.randrange(64), "y": random.randrange(64)})
        return action
