"""``self.arc_env`` in the current harness's loop: what the toolkit's environment wrapper shows an agent
(arc_agi's EnvironmentWrapper), fed by the frames arcbench sends. ``observation_space`` is the last
answer as a FrameDataRaw (grids as numpy arrays when numpy is installed, as the toolkit gives them, else
as lists of rows); ``action_space`` its available actions as GameAction members; ``info`` the game.
Stepping is arcbench's: the action an agent returns from ``choose_action`` is the step."""

from __future__ import annotations

import importlib
from types import SimpleNamespace
from typing import Any, Optional

import arcengine
from arcengine import FrameData, GameAction

from .episode import action_input_of, frame_data, frame_fields
from .grids import SIZE, frame_rows, grid_cells

# Optional, and looked up by name so that no import of it stands in the layer: the layer needs only the
# standard library, and agents whose interpreter has numpy get its arrays, as the toolkit gives them.
try:
    numpy: Any = importlib.import_module("numpy")
except ImportError:  # pragma: no cover - depends on the interpreter
    numpy = None

# arcengine before FrameDataRaw answered FrameData only; an installed one that old still plays.
_RAW = getattr(arcengine, "FrameDataRaw", FrameData)



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
            self._raw = _RAW(**frame_fields(self._wire), action_input=action_input_of(self._wire))
            self._raw.frame = [_array(cells) for cells in self._grids]
        return self._raw

    @property
    def action_space(self) -> list[GameAction]:
        return [GameAction.from_id(action_id) for action_id in self._wire["available_actions"]]

    def latest_frame(self) -> FrameData:
        """The harness's ``latest_frame``: a new FrameData from the last answer at every call, without
        its action_input (the harness's conversion leaves it at its default)."""
        return frame_data(self._wire, self._grids, with_action_input=False)

    def step(self, *_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("arc_env.step is arcbench's in this loop: return the action from choose_action and arcbench takes it")

    def reset(self, *_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("arc_env.reset is arcbench's in this loop: return GameAction.RESET from choose_action and arcbench sends it")


def _array(cells: bytes) -> Any:
    if numpy is None:
        return frame_rows([cells])[0]
    return numpy.frombuffer(cells, dtype=numpy.uint8).reshape(SIZE, SIZE).astype(numpy.int8)
