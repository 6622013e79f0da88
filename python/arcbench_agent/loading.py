"""Finds the agent class in a user's module: ``file.py`` (its one Agent subclass) or
``file.py:ClassName``. The module imports ``agents.agent`` and ``arcengine``; the real packages are
used when installed, arcbench's compatibility layer (python/compat) otherwise."""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from typing import Optional

_COMPAT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat")


class LoadError(Exception):
    """The module has no usable agent class; the message says what to do."""


def use_compatibility_layer() -> None:
    # Last on the path: a real `arcengine` or `agents` anywhere before it is found first.
    if _COMPAT_DIR not in sys.path:
        sys.path.append(_COMPAT_DIR)


def load_agent_class(file: str, class_name: Optional[str]) -> type:
    use_compatibility_layer()
    folder = os.path.dirname(os.path.abspath(file))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module_name = os.path.splitext(os.path.basename(file))[0]
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise LoadError(f"{file} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    base = _agent_base()
    if class_name is not None:
        chosen = getattr(module, class_name, None)
        if not inspect.isclass(chosen) or not issubclass(chosen, base):
            raise LoadError(f"{file} has no Agent subclass named {class_name}; {_listing(module, base, file)}")
        return chosen
    found = _agent_classes(module, base)
    if len(found) != 1:
        raise LoadError(f"{file} must define one Agent subclass, or name one as {os.path.basename(file)}:ClassName; {_listing(module, base, file)}")
    return found[0]


def _agent_base() -> type:
    from agents.agent import Agent

    return Agent


def _agent_classes(module: object, base: type) -> list[type]:
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, base) and value is not base and value.__module__ == module.__name__ and not inspect.isabstract(value)  # type: ignore[attr-defined]
    ]


def _listing(module: object, base: type, file: str) -> str:
    names = [cls.__name__ for cls in _agent_classes(module, base)]
    return f"it defines {', '.join(names)}" if names else "it defines none (a class derived from agents.agent.Agent with is_done and choose_action)"
