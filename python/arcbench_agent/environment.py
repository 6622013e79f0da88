"""``self.arc_env`` in the current harness's loop: what the toolkit's environment wrapper shows an agent
(arc_agi's EnvironmentWrapper), fed by the frames arcbench sends. ``observation_space`` is the last
answer as a FrameDataRaw (grids as numpy arrays when numpy is installed, as the toolkit gives them, else
as lists of rows); ``action_space`` its available actions as GameAction members; ``info`` the game.
Stepping is arcbench's: the action an agent returns from ``choose_action`` is the step."""

from __future__ import annotations

import importlib
from functools import partial
from types import SimpleNamespace
from typing import Any, Optional

import arcengine
from arcengine import ActionInput, FrameData, GameAction, GameState

from .grids import SIZE, frame_rows, grid_cells

# Optional, and looked up by name so that no import of it stands in the layer: the layer needs only the
# standard library, and agents whose interpreter has numpy get its arrays, as the toolkit gives them.
try:
    numpy: Any = importlib.import_module("numpy")
except ImportError:  # pragma: no cover - depends on the interpreter
    numpy = None

# arcengine before FrameDataRaw answered FrameData only; an installed one that old still plays.
_RAW = getattr(arcengine, "FrameDataRaw", FrameData)

# arcbench's own FrameData (python/compat) makes a frame's lists when an agent first reads them.
_DEFERS_FRAME = hasattr(FrameData, "defer_frame")


class Environment:
    def __init__(self, game: dict[str, Any], wire: dict[str, Any]) -> None:
        self.info = SimpleNamespace(game_id=game["game_id"], title=game.get("title"), tags=game.get("tags"), baseline_actions=game.get("baseline_actions"))
        self.observe(wire)

    def observe(self, wire: dict[str, Any]) -> None:
        """The service's latest answer (a protocol frame); its grids are checked as they arrive."""
        self._wire = wire
        self._grids = [grid_cells(grid) for grid in wire["grids"]]
        self._raw: Optional[Any] = None

    @property
    def observation_space(self) -> Any:
        # One object per answer, as the toolkit's wrapper keeps its last response.
        if self._raw is None:
            self._raw = _RAW(**_fields(self._wire), action_input=_action_input(self._wire))
            self._raw.frame = [_array(cells) for cells in self._grids]
        return self._raw

    @property
    def action_space(self) -> list[GameAction]:
        return [GameAction.from_id(action_id) for action_id in self._wire["available_actions"]]

    def latest_frame(self) -> FrameData:
        """The harness's ``latest_frame``: a new FrameData from the last answer at every call, without
        its action_input (the harness's conversion leaves it at its default)."""
        data = FrameData(**_fields(self._wire), frame=[] if _DEFERS_FRAME else frame_rows(self._grids))
        if _DEFERS_FRAME:
            data.defer_frame(partial(frame_rows, self._grids))
        return data

    def step(self, *_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("arc_env.step is arcbench's in this loop: return the action from choose_action and arcbench takes it")

    def reset(self, *_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("arc_env.reset is arcbench's in this loop: return GameAction.RESET from choose_action and arcbench sends it")


def _fields(wire: dict[str, Any]) -> dict[str, Any]:
    return {
        "game_id": wire["game_id"],
        "state": GameState(wire["state"]),
        "levels_completed": wire["levels_completed"],
        "win_levels": wire["win_levels"],
        "guid": wire["guid"],
        "full_reset": wire.get("full_reset", False),
        "available_actions": list(wire["available_actions"]),
    }


def _action_input(wire: dict[str, Any]) -> ActionInput:
    given = wire.get("action_input") or {}
    try:
        action = GameAction.from_id(given.get("id", 0))
    except ValueError:
        action = GameAction.RESET
    return ActionInput(id=action, data=given.get("data") or {}, reasoning=given.get("reasoning"))


def _array(cells: bytes) -> Any:
    if numpy is None:
        return frame_rows([cells])[0]
    return numpy.frombuffer(cells, dtype=numpy.uint8).reshape(SIZE, SIZE).astype(numpy.int8)
