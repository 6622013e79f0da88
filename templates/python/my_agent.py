"""A starter Python agent, written by `arcbench init --python`, in the shape of the official harness
(ARC-AGI-3-Agents): change it, then `npx arcbench run experiment.yaml`.

It runs as it is, on Python 3.10 or newer, with nothing installed: arcbench ships a small standard-library
stand-in for `agents.agent` and `arcengine` (the real packages are used when they are installed). An
agent you already have for the official harness runs the same way: point `use:` at its file.

The loop is the official one. The agent first sees an empty NOT_PLAYED frame and answers RESET, which
starts the game; then `is_done` is asked before every `choose_action`, until it says True, MAX_ACTIONS
is reached, or one of arcbench's budgets (experiment.yaml) ends the episode.
"""

import random

from agents.agent import Agent
from arcengine import FrameData, GameAction, GameState


class MyAgent(Agent):
    # The official harness's cap on actions; arcbench's budgets.max_actions applies too.
    MAX_ACTIONS = 80

    def is_done(self, frames: list[FrameData], latest_frame: FrameData) -> bool:
        return latest_frame.state is GameState.WIN

    def choose_action(self, frames: list[FrameData], latest_frame: FrameData) -> GameAction:
        # NOT_PLAYED (the start) and GAME_OVER both want a RESET.
        if latest_frame.state in (GameState.NOT_PLAYED, GameState.GAME_OVER):
            return GameAction.RESET

        # latest_frame.frame is a list of grids (the last is on screen now), each 64 rows of 64 colours.
        grid = latest_frame.frame[-1]
        # random is seeded with the episode's seed (self.seed): the same run seed makes the same choices.
        action = GameAction.from_id(random.choice(latest_frame.available_actions))
        if action.is_complex():
            x, y = self.drawn_cell(grid)
            action.set_data({"x": x, "y": y})
        # Any JSON: it goes to the service with the action (at most 16 KB). A "usage" object in it
        # ({"model", "input_tokens", "output_tokens", "cost_usd", ...}) counts as model usage.
        action.reasoning = f"random {action.name}"
        return action

    def drawn_cell(self, grid: list[list[int]]) -> tuple[int, int]:
        """A cell not of the background colour, if one of a few random cells is: clicks on empty space
        rarely do anything."""
        background = grid[0][0]
        x, y = random.randrange(64), random.randrange(64)
        for _ in range(self.params.get("click_tries", 20)):
            if grid[y][x] != background:
                break
            x, y = random.randrange(64), random.randrange(64)
        return x, y
