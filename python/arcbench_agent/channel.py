"""The protocol's transport on the agent's side: requests read from stdin by a thread of their own, so
that a ``stop`` (or arcbench's death: end of file) ends the process at once, even while the agent is
deep in a model call; answers written to the private answer channel (fd 3), never to stdout."""

from __future__ import annotations

import json
import os
import queue
import signal
import sys
import threading
from typing import Any, Optional


def _exit_now() -> None:
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


class Channel:
    def __init__(self) -> None:
        self._answer_fd = int(os.environ.get("ARCBENCH_ANSWER_FD", "3"))
        self._inbox: "queue.SimpleQueue[Optional[dict[str, Any]]]" = queue.SimpleQueue()
        self._ending = threading.Event()
        self._settled = threading.Event()
        threading.Thread(target=self._read_requests, name="arcbench-requests", daemon=True).start()

    def _read_requests(self) -> None:
        for line in sys.stdin.buffer:
            if not line.strip():
                continue
            message = json.loads(line)
            if message.get("type") == "stop":
                _exit_now()
            if message.get("type") == "end":
                self._ending.set()
            self._inbox.put(message)
        # arcbench closed stdin: the episode is over, or arcbench is gone. An agent cleaning up after
        # `end` gets a moment; one still deciding is not waited for.
        if self._ending.is_set():
            self._settled.wait(0.5)
        _exit_now()

    def receive(self) -> dict[str, Any]:
        message = self._inbox.get()
        assert message is not None
        return message

    def send(self, message: dict[str, Any]) -> None:
        # The agent's own prints go out before its answer, so run.log reads in order.
        sys.stdout.flush()
        data = (json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            written = os.write(self._answer_fd, view)
            view = view[written:]

    def settled(self) -> None:
        """The agent's clean-up after `end` is done; the process may exit."""
        self._settled.set()
