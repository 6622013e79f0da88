"""Loading a game class from its file, as the toolkit does (the file's source executed as a fresh module),
with a failure worded as `file:line: what`, so a user can go straight to the line."""

from __future__ import annotations

import inspect
import traceback
import types
from pathlib import Path

_classes: dict[tuple[str, str], type] = {}


class GameLoadError(Exception):
    """A game file that cannot be read or executed, or lacks its class."""


def game_class(file: str, class_name: str) -> type:
    """The class `class_name` of `file`, loaded once per host."""
    key = (str(Path(file).resolve()), class_name)
    if key not in _classes:
        _classes[key] = _load(key[0], class_name)
    return _classes[key]


def _load(file: str, class_name: str) -> type:
    from arcengine import ARCBaseGame

    try:
        source = Path(file).read_text(encoding="utf-8")
    except OSError as error:
        raise GameLoadError(f"{file}: cannot be read ({error.strerror})") from None
    module = types.ModuleType(f"arcbench_game_{len(_classes)}")
    module.__file__ = file
    try:
        exec(compile(source, file, "exec"), module.__dict__)
    except Exception as error:
        raise GameLoadError(where(error, file)) from None
    loaded = getattr(module, class_name, None)
    if not isinstance(loaded, type) or not issubclass(loaded, ARCBaseGame):
        raise GameLoadError(f"{file}: defines no ARCBaseGame subclass named {class_name}; name the class in metadata.json's class_name")
    return loaded


def new_game(cls: type, seed: int):
    """An instance seeded as the toolkit seeds one: `seed=` when the constructor takes it."""
    if "seed" in inspect.signature(cls).parameters:
        return cls(seed=seed)
    return cls()


def where(error: BaseException, file: str) -> str:
    """`file:line: Type: message`, the line the deepest frame in `file` (or a SyntaxError's own)."""
    line = getattr(error, "lineno", None) if isinstance(error, SyntaxError) else None
    if line is None:
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == file]
        line = frames[-1].lineno if frames else None
    place = f"{file}:{line}" if line is not None else file
    return f"{place}: {type(error).__name__}: {error}"
