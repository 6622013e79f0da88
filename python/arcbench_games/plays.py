"""The games a host is playing, by session, and what each request does to one. Frames go out as the agent
protocol's grids: 4096 hex digits, row-major (docs/agent-protocol.md §3)."""

from __future__ import annotations

import os

import numpy as np
from arcengine import ActionInput, GameAction

from .loading import game_class, new_game

_HEX = bytes.maketrans(bytes(range(16)), b"0123456789abcdef")
_CELLS = 64 * 64


class Plays:
    def __init__(self) -> None:
        self._games: dict[str, object] = {}
        self._files: dict[str, str] = {}

    def file_of(self, request: dict) -> str:
        return self._files.get(request.get("session"), "the game")

    def handle(self, request: dict) -> dict:
        op = request.get("op")
        if op == "describe":
            game = new_game(game_class(request["file"], request["class"]), int(request.get("seed", 0)))
            return {"available_actions": list(game._available_actions), "win_levels": int(game.win_score)}
        if op == "open":
            return self._open(request)
        session = request["session"]
        if op == "close":
            self._games.pop(session, None)
            self._files.pop(session, None)
            return {}
        game = self._games[session]
        if op == "act":
            data = {"x": request["x"], "y": request["y"]} if request["action"] == 6 else {}
            return _frame(game.perform_action(ActionInput(id=GameAction.from_id(request["action"]), data=data), raw=True))
        if op == "reset":
            return _reset(game, bool(request.get("levels_only")))
        raise ValueError(f"unknown op {op!r}")

    def _open(self, request: dict) -> dict:
        game = new_game(game_class(request["file"], request["class"]), int(request["seed"]))
        self._games[request["session"]] = game
        self._files[request["session"]] = request["file"]
        return _reset(game, False)


def _reset(game, levels_only: bool) -> dict:
    # The engine reads competition mode from the environment; set only around this one RESET.
    before = os.environ.get("ONLY_RESET_LEVELS")
    if levels_only:
        os.environ["ONLY_RESET_LEVELS"] = "true"
    try:
        return _frame(game.perform_action(ActionInput(id=GameAction.RESET), raw=True))
    finally:
        if levels_only:
            if before is None:
                del os.environ["ONLY_RESET_LEVELS"]
            else:
                os.environ["ONLY_RESET_LEVELS"] = before


def _frame(raw) -> dict:
    return {
        "frames": [_hex(grid) for grid in raw.frame],
        "state": raw.state.name,
        "levels_completed": int(raw.levels_completed),
        "win_levels": int(raw.win_levels),
        "available_actions": [int(a) for a in raw.available_actions],
        "full_reset": bool(raw.full_reset),
    }


def _hex(grid) -> str:
    cells = np.ascontiguousarray(grid, dtype=np.uint8)
    if cells.size != _CELLS:
        raise ValueError(f"a frame of {cells.shape} cells; the engine renders 64x64")
    if cells.max(initial=0) > 15:
        raise ValueError("a frame holds a colour above 15")
    return cells.tobytes().translate(_HEX).decode("ascii")
