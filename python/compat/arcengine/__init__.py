"""The part of `arcengine` that agents written for the official harness use, in the standard library.

arcbench puts this package at the end of ``sys.path``: when the real ``arcengine`` is installed it is
found first and used; otherwise ``from arcengine import FrameData, GameAction, GameState, ActionInput``
resolves here. Names and behaviour follow the public interface of ``arcengine``, down to what its
pydantic models accept (a click's ``"17"`` or ``17.0`` is 17, as pydantic's lax mode makes it) and how
they dump (``model_dump(mode=…)``, ``model_dump_json(indent=…)``).
"""

from __future__ import annotations

import json
import math
import re
from enum import Enum
from typing import Any, Callable, Optional

MAX_REASONING_BYTES = 16 * 1024
GRID_SIZE = 64


class GameState(str, Enum):
    NOT_PLAYED = "NOT_PLAYED"
    NOT_FINISHED = "NOT_FINISHED"
    WIN = "WIN"
    GAME_OVER = "GAME_OVER"


class _Fields:
    """Keyword construction, equality and pydantic-style dumps for the small records below."""

    _fields: tuple[str, ...] = ()

    def model_dump(self, *, mode: str = "python", **_options: Any) -> dict[str, Any]:
        """As pydantic's: ``mode="python"`` keeps enum members, ``mode="json"`` makes them their values."""
        return {name: _dumped(getattr(self, name), mode) for name in self._fields}

    def model_dump_json(self, *, indent: Optional[int] = None, **_options: Any) -> str:
        # pydantic's spelling: compact without an indent, ": " with one, non-ASCII left as it is.
        separators = (",", ":") if indent is None else (",", ": ")
        return json.dumps(self.model_dump(mode="json"), indent=indent, separators=separators, ensure_ascii=False)

    def __str__(self) -> str:
        return " ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.model_dump() == other.model_dump()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"


def _dumped(value: Any, mode: str) -> Any:
    if isinstance(value, _Fields):
        return value.model_dump(mode=mode)
    if isinstance(value, Enum):
        return value.value if mode == "json" else value
    if isinstance(value, list):
        return [_dumped(item, mode) for item in value]
    if isinstance(value, dict):
        return {key: _dumped(item, mode) for key, item in value.items()}
    return value


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):  # pydantic takes no number for a str field
        raise ValueError(f"{name} must be a string, got {value!r}")
    return value


class SimpleAction(_Fields):
    _fields = ("game_id",)

    def __init__(self, game_id: str = "", **_ignored: Any) -> None:
        self.game_id = _text("game_id", game_id)


# What pydantic's lax mode reads as an int from text: ASCII digits, "_" between them, a sign, a
# fraction of zeros, surrounding whitespace. LLM templates declare x and y as JSON strings, so models
# answer {"x": "17"}, which the real arcengine takes as 17.
_WHOLE_TEXT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*(?:\.0+)?")


def _lax_int(value: Any) -> Optional[int]:
    if isinstance(value, int):  # bool included: pydantic takes True as 1
        return int(value)
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else None
    if isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str) and _WHOLE_TEXT.fullmatch(value.strip()):
        return int(value.strip().split(".")[0])
    return None


def _coordinate(name: str, value: Any) -> int:
    whole = _lax_int(value)
    if whole is None or not 0 <= whole < GRID_SIZE:
        raise ValueError(f"{name} must be a whole number 0..{GRID_SIZE - 1}, got {value!r}")
    return whole


class ComplexAction(_Fields):
    _fields = ("game_id", "x", "y")

    def __init__(self, game_id: str = "", x: int = 0, y: int = 0, **_ignored: Any) -> None:
        self.game_id = _text("game_id", game_id)
        self.x = _coordinate("x", x)
        self.y = _coordinate("y", y)


class GameAction(Enum):
    """The actions. Members are shared singletons, as in arcengine: ``set_data`` and an agent's
    ``reasoning`` change the member itself, and stay until changed again (the gen1 loop resets both
    after reading each chosen action)."""

    RESET = (0, SimpleAction)
    ACTION1 = (1, SimpleAction)
    ACTION2 = (2, SimpleAction)
    ACTION3 = (3, SimpleAction)
    ACTION4 = (4, SimpleAction)
    ACTION5 = (5, SimpleAction)
    ACTION6 = (6, ComplexAction)
    ACTION7 = (7, SimpleAction)

    def __init__(self, action_id: int, action_type: type) -> None:
        self._value_ = action_id
        self.action_type = action_type
        self.action_data = action_type()

    def is_simple(self) -> bool:
        return self.action_type is SimpleAction

    def is_complex(self) -> bool:
        return self.action_type is ComplexAction

    def validate_data(self, data: dict[str, Any]) -> bool:
        self.action_type(**data)
        return True

    def set_data(self, data: dict[str, Any]) -> Any:
        self.action_data = self.action_type(**data)
        return self.action_data

    @classmethod
    def from_id(cls, action_id: int) -> "GameAction":
        # A dict lookup, not a walk over the members: the layer calls it for every frame.
        action = _ACTIONS_BY_ID.get(action_id) if isinstance(action_id, int) and not isinstance(action_id, bool) else None
        if action is None:
            raise ValueError(f"No GameAction with id {action_id}")
        return action

    @classmethod
    def _missing_(cls, value: object) -> Optional["GameAction"]:
        # GameAction(3): members are looked up by their tuple; their id is what people pass.
        return _ACTIONS_BY_ID.get(value) if isinstance(value, int) else None  # type: ignore[arg-type]

    @classmethod
    def from_name(cls, name: str) -> "GameAction":
        try:
            return cls[name.upper()]
        except KeyError:
            raise ValueError(f"No GameAction with name '{name}'") from None

    @classmethod
    def all_simple(cls) -> list["GameAction"]:
        return [action for action in cls if action.is_simple()]

    @classmethod
    def all_complex(cls) -> list["GameAction"]:
        return [action for action in cls if action.is_complex()]


_ACTIONS_BY_ID = {action.value: action for action in GameAction}


class ActionInput(_Fields):
    _fields = ("id", "data", "reasoning")

    def __init__(self, id: GameAction = GameAction.RESET, data: Optional[dict[str, Any]] = None, reasoning: Any = None) -> None:
        self.id = id if isinstance(id, GameAction) else GameAction.from_id(id)
        self.data = dict(data or {})
        if reasoning is not None:
            try:
                size = len(json.dumps(reasoning, separators=(",", ":")).encode("utf-8"))
            except (TypeError, ValueError):
                raise ValueError("reasoning must be JSON-serialisable") from None
            if size > MAX_REASONING_BYTES:
                raise ValueError(f"reasoning exceeds {MAX_REASONING_BYTES} bytes")
        self.reasoning = reasoning


class _Frame(_Fields):
    """What FrameData and FrameDataRaw share: the fields of one answer of the service."""

    _fields = ("game_id", "frame", "state", "levels_completed", "win_levels", "action_input", "guid", "full_reset", "available_actions")

    def __init__(
        self,
        game_id: str = "",
        frame: Optional[list[list[list[int]]]] = None,
        state: GameState = GameState.NOT_PLAYED,
        levels_completed: int = 0,
        win_levels: int = 0,
        action_input: Optional[ActionInput] = None,
        guid: Optional[str] = None,
        full_reset: bool = False,
        available_actions: Optional[list[int]] = None,
        **_ignored: Any,
    ) -> None:
        self.game_id = game_id
        self.frame = frame if frame is not None else []
        self.state = state if isinstance(state, GameState) else GameState(state)
        self.levels_completed = levels_completed
        self.win_levels = win_levels
        self.action_input = action_input if action_input is not None else ActionInput()
        self.guid = guid
        self.full_reset = full_reset
        self.available_actions = list(available_actions or [])

    # The grids as lists are made when `frame` is first read: agents read the latest frame's grids, if
    # any, and keep every frame, so making 65 lists a grid for each would be most of arcbench's own time
    # per step and most of the memory an episode holds. Reading and assigning `frame` work as ever.
    _make_frame: Optional[Callable[[], list[list[list[int]]]]] = None

    @property
    def frame(self) -> list[list[list[int]]]:
        if self._make_frame is not None:
            self._frame = self._make_frame()
            self._make_frame = None
        return self._frame

    @frame.setter
    def frame(self, value: list[list[list[int]]]) -> None:
        self._frame = value
        self._make_frame = None

    def defer_frame(self, make: Callable[[], list[list[list[int]]]]) -> None:
        """arcbench's layer: ``frame`` is ``make()``, called when it is first read."""
        self._make_frame = make

    def is_empty(self) -> bool:
        return len(self.frame) == 0

    def __str__(self) -> str:
        return self.model_dump_json(indent=2)


class FrameData(_Frame):
    """One answer of the service: ``frame`` is a list of grids, each 64 lists of 64 ints."""

    @classmethod
    def model_validate(cls, value: Any) -> "FrameData":
        return value if isinstance(value, cls) else cls(**value)


class FrameDataRaw(_Frame):
    """What the toolkit's environments answer (``arc_env.observation_space``): FrameData's fields, the
    grids as arrays (numpy's when it is installed, else lists of rows), left out of its dumps as in
    arcengine."""

    _fields = ("game_id", "state", "levels_completed", "win_levels", "action_input", "guid", "full_reset", "available_actions")


__all__ = ["ActionInput", "ComplexAction", "FrameData", "FrameDataRaw", "GameAction", "GameState", "SimpleAction", "MAX_REASONING_BYTES"]
