"""Finds the agent class in a user's module: ``file.py`` (its one Agent subclass) or
``file.py:ClassName``. The module imports ``agents.agent`` and ``arcengine``; the real packages are
used when installed, arcbench's compatibility layer (python/compat) otherwise.

Files load as their authors wrote them (docs/python-agents.md): a file below a folder named ``agents``
(the official harness's agents/templates/, or a user's agents/my_agent.py) is imported as a module of
the ``agents`` package, and so is a lone file whose imports are relative (a copy of a template). That
package is made here, without running any ``agents/__init__.py``: the harness's imports every
template's dependencies, which must not stop a light agent from loading."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import logging
import os
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Optional

_COMPAT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat")
_COMPAT_AGENTS = os.path.join(_COMPAT_DIR, "agents")


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
    else:
        found = _agent_classes(module, base)
        if len(found) != 1:
            raise LoadError(f"{file} must define one Agent subclass, or name one as {os.path.basename(file)}:ClassName; {_listing(module, base, file)}")
        chosen = found[0]
    _refuse_own_loop(chosen, base, file)
    return chosen


def _import_file(path: str) -> ModuleType:
    """The module of a file: in the ``agents`` package when it lies below a folder of that name or
    imports relatively from a folder that is no package; else under its package's name (folders with
    __init__.py), so its relative imports resolve; else alone, from its folder."""
    in_agents = _agents_placement(path)
    if in_agents is not None:
        agents_dir, name, root = in_agents
        _add_to_path(root)
        _install_agents_package(agents_dir)
        return _imported(name)
    root, name = _package_root(path)
    _add_to_path(root)
    if "." in name:
        return _imported(name)
    if os.path.isfile(os.path.join(root, "agents", "agent.py")):
        # A file at the root of a harness checkout (beside its main.py) imports that checkout's agents.
        _install_agents_package(os.path.join(root, "agents"))
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise LoadError(f"{path} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _with_advice(lambda: spec.loader.exec_module(module))  # type: ignore[union-attr]
    return module


def _add_to_path(folder: str) -> None:
    if folder not in sys.path:
        sys.path.insert(0, folder)


def _imported(name: str) -> ModuleType:
    return _with_advice(lambda: importlib.import_module(name))


def _agents_placement(path: str) -> Optional[tuple[str, str, str]]:
    """The folder that plays the ``agents`` package, the file's module name in it, and the folder to
    put on sys.path; None when the file is neither below an ``agents`` folder nor a lone file that
    imports relatively."""
    folder = os.path.dirname(path)
    ancestor = folder
    while os.path.basename(ancestor) != "agents":
        parent = os.path.dirname(ancestor)
        if parent == ancestor:
            break
        ancestor = parent
    if os.path.basename(ancestor) == "agents":
        # As the official harness runs: from the checkout's root, where `agents` and main.py lie.
        return ancestor, _dotted(ancestor, path), os.path.dirname(ancestor)
    level = _relative_level(path)
    if level == 0 or os.path.isfile(os.path.join(folder, "__init__.py")):
        return None
    # `from .agent` makes the file's folder the package; `from ..agent` its parent, as for a template.
    agents_dir = folder
    for _ in range(level - 1):
        agents_dir = os.path.dirname(agents_dir)
    return agents_dir, _dotted(agents_dir, path), folder


def _dotted(agents_dir: str, path: str) -> str:
    parts = os.path.relpath(os.path.splitext(path)[0], agents_dir).split(os.sep)
    return ".".join(["agents", *parts])


def _relative_level(path: str) -> int:
    """How many package levels up the file's relative imports reach (0: none). A file that does not
    parse is left to the import, which reports its syntax error with the line."""
    try:
        with open(path, "rb") as source:
            tree = ast.parse(source.read(), path)
    except (OSError, SyntaxError, ValueError):
        return 0
    return max((node.level for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)), default=0)


def _install_agents_package(agents_dir: str) -> None:
    """The ``agents`` package, made without its __init__.py: the modules of ``agents_dir`` first, then
    arcbench's stand-ins (agents.agent, agents.structs) for what it lacks."""
    if "agents" in sys.modules:
        return
    spec = ModuleSpec("agents", None, is_package=True)
    spec.submodule_search_locations = [agents_dir, _COMPAT_AGENTS]
    package = importlib.util.module_from_spec(spec)
    sys.modules["agents"] = package
    harness_agent = os.path.join(agents_dir, "agent.py")
    if not os.path.isfile(harness_agent):
        return
    try:
        importlib.import_module("agents.agent")
    except Exception as error:  # the harness's Agent needs arc_agi, pydantic…: the stand-in serves the same agents
        sys.modules.pop("agents.agent", None)
        _load_compat_agent()
        logging.getLogger("arcbench").info(
            "arcbench's compatible Agent stands in for %s, which cannot be imported here (%s: %s)", harness_agent, type(error).__name__, error
        )


def _load_compat_agent() -> None:
    spec = importlib.util.spec_from_file_location("agents.agent", os.path.join(_COMPAT_AGENTS, "agent.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["agents.agent"] = module
    spec.loader.exec_module(module)
    sys.modules["agents"].agent = module  # type: ignore[attr-defined]


def _with_advice(load):  # type: ignore[no-untyped-def]
    """Runs the import; a module that is not installed, or a relative import with nowhere to go, is
    re-raised (same type, same traceback) with what to do appended."""
    try:
        return load()
    except ModuleNotFoundError as error:
        advice = (
            f"install the package that provides {error.name!r} for the interpreter arcbench runs ({sys.executable}), "
            "or name one that has it in the agent entry's python: (or ARCBENCH_PYTHON)"
        )
        raise ModuleNotFoundError(f"{error.msg}; {advice}", name=error.name, path=error.path).with_traceback(error.__traceback__) from None
    except ImportError as error:
        if "relative import" not in str(error):
            raise
        advice = "the file's relative imports reach above its top package (the highest folder with __init__.py); import those modules absolutely, or point use: at a file inside the package they belong to"
        raise ImportError(f"{error.msg}; {advice}", name=error.name, path=error.path).with_traceback(error.__traceback__) from None


def _refuse_own_loop(chosen: type, base: type, file: str) -> None:
    """An agent that overrides main() plays its own loop (the smolagents templates do); arcbench
    drives the loop, so that main() would never run and the class would play as its parent."""
    for cls in chosen.__mro__:
        if cls is base:
            return
        if "main" in vars(cls):
            raise LoadError(
                f"{file}: {chosen.__name__} overrides main() (in {cls.__name__}) to run its own loop, which arcbench never calls: "
                "arcbench drives the loop itself, asking is_done and then choose_action once per step; "
                "move what main() does each step into choose_action (and its end test into is_done), or point use: at a class that keeps the harness's main()"
            )


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
