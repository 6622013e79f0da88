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
    answers = os.dup(sys.stdout.fileno())
    sys.stdout = sys.stderr
    missing = _missing_engine()
    if missing is not None:
        _send(answers, {"hello": False, "message": missing})
        return 3
    import arcengine

    _send(answers, {"hello": True, "protocol": HOST_PROTOCOL, "arcengine": getattr(arcengine, "__version__", "unknown")})
    from .plays import Plays

    plays = Plays()
    # Bytes in, bytes out, one line each way per request: no text layer between a step and its pipe.
    read = sys.stdin.buffer.readline
    for line in iter(read, b""):
        if line.strip():
            _send(answers, _answer(plays, line.decode("utf-8")))
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


def _send(answers: int, message: dict) -> None:
    data = memoryview(_encoded(message))
    while data:
        data = data[os.write(answers, data) :]


def _encoded(message: dict) -> bytes:
    # A frame is hex digits: spliced in as is, json.dumps would scan every one of its 4096 characters.
    frames = message.pop("frames", None)
    head = json.dumps(message, separators=(",", ":"))
    if frames is not None:
        head = head[:-1] + ',"frames":["' + '","'.join(frames) + '"]}'
    return (head + "\n").encode("ascii")
