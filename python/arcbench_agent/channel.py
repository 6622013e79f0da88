"""The protocol's transport on the agent's side: requests read from stdin, answers written to the
private answer channel (fd 3), never to stdout.

Requests are read by the main thread, between decisions: a thread of its own that handed each one over
cost more than the rest of the layer together (a thread switch a step). A `stop` that comes while the
agent decides is not read then: arcbench kills the process group 0.5 s later anyway. What must not wait
is arcbench's death (even `kill -9`): a watchdog thread sees the process reparented and ends it."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from typing import Any

_WATCH_SECONDS = 0.2


def exit_now() -> None:
    """Ends the process without waiting for the agent's code: what it printed is flushed first. arcbench
    starts the agent as the leader of its own process group; the group goes too, so whatever the agent
    started (a model server, a shell) does not outlive it, even when arcbench itself was killed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    if os.getpgrp() == os.getpid():
        os.killpg(os.getpid(), signal.SIGKILL)
    os._exit(0)


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(_WATCH_SECONDS)
        if os.getppid() != parent:
            exit_now()


class Channel:
    def __init__(self, watch: bool = True) -> None:
        self._answer_fd = int(os.environ.get("ARCBENCH_ANSWER_FD", "3"))
        self._requests = sys.stdin.buffer
        # The playing agent's snapshots (snapshot.py), answered whenever arcbench asks, between steps.
        self.snapshots: Any = None
        if not watch:
            # A fork server starts no thread (forking one that runs threads is unsafe): its stdin ends when arcbench dies.
            return
        threading.Thread(target=_watch_parent, args=(os.getppid(),), name="arcbench-watchdog", daemon=True).start()

    def receive(self) -> dict[str, Any]:
        """The next request; a `stop` or the end of stdin ends the process; a `snapshot` is answered here."""
        while True:
            line = self._requests.readline()
            if not line:
                exit_now()
            if not line.strip():
                continue
            message = json.loads(line)
            kind = message.get("type")
            if kind == "stop":
                exit_now()
            if kind != "snapshot":
                return message
            self.send(self.snapshots.answer() if self.snapshots is not None else {"type": "snapshot", "refused": "no agent is playing yet"})

    def send(self, message: dict[str, Any]) -> None:
        # The agent's own prints go out before its answer, so run.log reads in order.
        sys.stdout.flush()
        data = (json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            written = os.write(self._answer_fd, view)
            view = view[written:]
