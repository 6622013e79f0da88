"""One process per agent that has imported its module once, and forks a fresh child for each episode
(docs/agent-protocol.md §8): an episode's agent is ready in milliseconds however much the module
imports, and since each child is a copy of the process as it was after the import, nothing one
episode sets (on the class, in a module) reaches the next.

arcbench asks ``{"type":"fork","socket":PATH,"token":T}`` on stdin; the child connects to arcbench's
socket three times (its requests and answers, its stdout, its stderr), each connection's first line
``T answers|stdout|stderr``, and plays one episode as a process started for it would. The server
answers ``forked`` with the child's pid, and ``exited`` with its status once it is gone. Each child
leads its own process group; the server's stdin ending (arcbench gone) ends the server and them."""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import socket
import sys
import threading
from typing import Any, Optional


def fork_unsafe() -> Optional[str]:
    """Why forking this process is unsafe, or None: no fork but on Linux and macOS, and a thread the
    module started would not be in the child (and may hold a lock the child then waits on forever)."""
    if sys.platform not in ("linux", "darwin") or not hasattr(os, "fork"):
        return f"fork is not used on {sys.platform}"
    threads = [thread.name for thread in threading.enumerate() if thread is not threading.main_thread()]
    if threads:
        return f"the agent's module started threads when imported ({', '.join(threads[:3])}), and a forked copy of it could hang"
    return None


def serve(agent_class: type, answer_fd: int) -> int:
    """Forks a child per request until stdin ends; then the children go too."""
    _preload()
    children: set[int] = set()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ, "stdin")
    selector.register(wake_read, selectors.EVENT_READ, "child")
    pending = b""
    try:
        while True:
            for key, _ in selector.select():
                if key.data == "child":
                    os.read(wake_read, 512)
                    _reap(children, answer_fd)
                    continue
                chunk = os.read(0, 65536)
                if not chunk:
                    return 0
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.strip():
                        _fork(agent_class, json.loads(line), children, answer_fd, (wake_read, wake_write))
    finally:
        for pid in children:
            _kill_group(pid)
        # The socket's folder is arcbench's, but arcbench may be gone (kill -9) and never remove it.
        folder = os.environ.get("ARCBENCH_FORK_DIR")
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def _preload() -> None:
    """Imports here what every episode imports (both loops, snapshots, and numpy when the environment
    has it): imported in each child instead, they cost an episode ~0.1 s, more than the fork itself."""
    from . import channel, environment, episode, host, loop_current, loop_gen1, snapshot  # noqa: F401


def _fork(agent_class: type, request: dict[str, Any], children: set[int], answer_fd: int, wake: tuple[int, int]) -> None:
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    pid = os.fork()
    if pid == 0:
        os._exit(_child(agent_class, request, wake))
    children.add(pid)
    _send(answer_fd, {"type": "forked", "pid": pid})


def _child(agent_class: type, request: dict[str, Any], wake: tuple[int, int]) -> int:
    code = 1
    try:
        os.setsid()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in wake:
            os.close(fd)
        _connect(request)
        from .channel import Channel
        from .host import play_episode

        channel = Channel()
        first = channel.receive()
        if first.get("type") in ("start", "restore"):
            code = play_episode(agent_class, first, channel)
        else:
            code = 0
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
    return code


def _connect(request: dict[str, Any]) -> None:
    """The episode's streams, from arcbench's socket, on the descriptors a started process has."""
    for kind, targets in (("answers", (0, 3)), ("stdout", (1,)), ("stderr", (2,))):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(request["socket"])
        connection.sendall(f"{request['token']} {kind}\n".encode("ascii"))
        for target in targets:
            os.dup2(connection.fileno(), target)
        connection.close()
    os.environ["ARCBENCH_ANSWER_FD"] = "3"


def _reap(children: set[int], answer_fd: int) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        exited: dict[str, Any] = {"type": "exited", "pid": pid}
        if os.WIFSIGNALED(status):
            exited["signal"] = signal.Signals(os.WTERMSIG(status)).name
        else:
            exited["code"] = os.waitstatus_to_exitcode(status)
        _send(answer_fd, exited)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def _send(fd: int, message: dict[str, Any]) -> None:
    view = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))
    while view:
        view = view[os.write(fd, view) :]
