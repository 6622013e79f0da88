"""Exceptions as protocol `error` answers: the sentence, and the innermost frames of the traceback as
file and line, so arcbench's results point at the user's code (docs/agent-protocol.md §3)."""

from __future__ import annotations

import os
import traceback
from typing import Any

_LAYER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def error_answer(error: BaseException, context: str = "") -> dict[str, Any]:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if not frame.filename.startswith((_LAYER_DIR, "<frozen"))]
    where = [{"file": frame.filename, "line": frame.lineno or 0, "function": frame.name} for frame in frames[-5:]]
    if isinstance(error, SyntaxError) and error.filename:
        # A syntax error's place is the error itself, not a frame of the import machinery.
        where.append({"file": error.filename, "line": error.lineno or 0, "function": "<module>"})
    message = f"{type(error).__name__}: {error}"
    return {
        "type": "error",
        "message": f"{context}{message}",
        "where": where,
        "traceback": "".join(traceback.format_exception(type(error), error, error.__traceback__))[-8000:],
    }


def failure_sentence(error: BaseException) -> str:
    """The error as one line, ending with where it happened, as arcbench writes an agent's error."""
    answer = error_answer(error)
    frames = [f"{frame['file']}:{frame['line']} in {frame['function']}" for frame in answer["where"][-3:]]
    return f"{answer['message']} (at {' → '.join(frames)})" if frames else answer["message"]
