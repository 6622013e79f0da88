"""The host's loop: one JSON request a line on stdin, one JSON answer a line on a private channel (the
process's original stdout; a game's own prints go to stderr, so they cannot corrupt an answer). Requests
carry an `id` the answer repeats; `op` is describe, open, act, reset or close (docs/protocol.md §10)."""

from __future__ import annotations

import json
import os
import sys

from .loading import GameLoadError, where

HOST_PROTOCOL = 1


def serve() -> int:
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr
    missing = _missing_engine()
    if missing is not None:
        _send(answers, {"hello": False, "message": missing})
        return 3
    import arcengine

    _send(answers, {"hello": True, "protocol": HOST_PROTOCOL, "arcengine": getattr(arcengine, "__version__", "unknown")})
    from .plays import Plays

    plays = Plays()
    for line in sys.stdin:
        if line.strip():
            _send(answers, _answer(plays, line))
    return 0


def _answer(plays, line: str) -> dict:
    try:
        request = json.loads(line)
        ident = request["id"]
    except (ValueError, KeyError, TypeError):
        return {"id": None, "ok": False, "kind": "request", "message": f"not a request: {line[:80]!r}"}
    try:
        return {"id": ident, "ok": True, **plays.handle(request)}
    except GameLoadError as error:
        return {"id": ident, "ok": False, "kind": "load", "message": str(error)}
    except Exception as error:  # a game's own fault: worded with its file and line
        return {"id": ident, "ok": False, "kind": "game", "message": where(error, request.get("file") or plays.file_of(request))}


def _missing_engine() -> str | None:
    for name in ("numpy", "arcengine"):
        try:
            __import__(name)
        except ImportError as error:
            return f"the official games need the Python package {name}, which {sys.executable} cannot import ({error})"
    return None


def _send(answers, message: dict) -> None:
    answers.write(json.dumps(message, separators=(",", ":")))
    answers.write("\n")
    answers.flush()
