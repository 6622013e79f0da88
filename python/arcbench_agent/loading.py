"""Finds the agent class in a user's module: ``file.py`` (its one Agent subclass) or
``file.py:ClassName``. The module imports ``agents.agent`` and ``arcengine``; the real packages are
used when installed, arcbench's compatibility layer (python/compat) otherwise."""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
from types import ModuleType
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
    module = _import_file(os.path.abspath(file))
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


def _import_file(path: str) -> ModuleType:
    """The module of a file. A file inside a package (folders with __init__.py, as the official
    harness's agents/templates/) is imported under its package's name, so its relative imports
    (``from ..agent import Agent``) resolve; a lone file is imported from its folder."""
    root, name = _package_root(path)
    if root not in sys.path:
        sys.path.insert(0, root)
    if "." in name:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise LoadError(f"{path} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _package_root(path: str) -> tuple[str, str]:
    """The folder to import from, and the module's dotted name from there."""
    folder = os.path.dirname(path)
    parts = [os.path.splitext(os.path.basename(path))[0]]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parts.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    return folder, ".".join(parts)


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
