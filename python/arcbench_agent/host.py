"""The process arcbench starts for a Python agent: ``python3 arcbench_host.py FILE [CLASS]``. It answers
``hello`` once the module is loaded (or an error with the file and line), then plays one episode."""

from __future__ import annotations

import logging
import os
import re
import sys
from typing import Optional

from . import PROTOCOL
from .channel import Channel
from .failures import error_answer


def main(argv: list[str]) -> int:
    fork_server = argv[:1] == ["--fork-server"]
    if fork_server:
        argv = argv[1:]
    if not argv or len(argv) > 2:
        print("usage: arcbench_host.py [--fork-server] AGENT_FILE [CLASS_NAME] (arcbench starts this; see docs/agent-protocol.md)", file=sys.stderr)
        return 2
    file, class_name = argv[0], (argv[1] if len(argv) == 2 else None)
    channel = Channel(watch=not fork_server)
    hello = channel.receive()
    if hello.get("protocol") != PROTOCOL:
        channel.send({"type": "error", "message": f"this agent layer speaks {PROTOCOL}, arcbench asked for {hello.get('protocol')}; use the python/ layer of the same arcbench"})
        return 1
    _log_like_the_official_harness()
    agent_class = _load(file, class_name, channel)
    if agent_class is None:
        return 1
    if fork_server:
        return _serve_forks(agent_class, channel)
    channel.send(_hello(agent_class))
    first = channel.receive()
    if first.get("type") not in ("start", "restore"):
        return 0
    return play_episode(agent_class, first, channel)


def _serve_forks(agent_class: type, channel: Channel) -> int:
    """The module is imported: forks a child per episode from here, or says why it will not (§8)."""
    from .forkserver import fork_unsafe, serve

    unsafe = fork_unsafe()
    channel.send({**_hello(agent_class), "fork": unsafe is None, **({} if unsafe is None else {"why": unsafe})})
    if unsafe is not None:
        channel.receive()  # arcbench starts a process per episode instead, and ends this one
        return 0
    return serve(agent_class, int(os.environ.get("ARCBENCH_ANSWER_FD", "3")))


def play_episode(agent_class: type, first: dict, channel: Channel) -> int:
    """The episode from its start, or (`restore`) from an agent's snapshot (docs/agent-protocol.md §7)."""
    from .episode import play

    try:
        if first["type"] == "start":
            play(agent_class, first, channel)
        elif _restored(agent_class, first, channel):
            return 0
        else:
            return 1
    except Exception as error:  # the agent's own failure: reported with its traceback, the run goes on
        channel.send(error_answer(error))
        return 1
    return 0


def _restored(agent_class: type, request: dict, channel: Channel) -> bool:
    from .episode import construct, resume
    from .snapshot import Snapshots, restore

    try:
        agent = construct(agent_class, request)
        snapshots = Snapshots(agent)
        restore(agent, request["state"])
    except Exception as error:
        channel.send(error_answer(error, f"{agent_class.__name__} could not be restored from its snapshot: "))
        return False
    channel.snapshots = snapshots
    channel.send({"type": "restored"})
    resume(agent, request, channel)
    return True


def _hello(agent_class: type) -> dict:
    hello = {"type": "hello", "protocol": PROTOCOL, "name": _agent_name(agent_class)}
    # What the agent says of itself (its model calls, its longest decision): a class attribute, so that
    # arcbench reads it at load time without creating the agent. Fields: docs/agent-protocol.md.
    described = getattr(agent_class, "arcbench_describe", None)
    if described is not None:
        hello["describe"] = described
    return hello


def _agent_name(agent_class: type) -> str:
    # The default label in tables and file names: letters, digits, "-" and "_" only.
    return re.sub(r"[^a-z0-9_-]", "", agent_class.__name__.lower()).lstrip("_-") or "agent"


def _load(file: str, class_name: Optional[str], channel: Channel) -> Optional[type]:
    from .loading import LoadError, load_agent_class

    try:
        return load_agent_class(file, class_name)
    except LoadError as error:
        channel.send({"type": "error", "message": str(error)})
    except BaseException as error:  # SyntaxError, ImportError, or anything the module raised
        channel.send(error_answer(error, f"{file} failed to import: "))
    return None


def _log_like_the_official_harness() -> None:
    # Official agents log with logging.getLogger(); the harness shows INFO. Here it goes to stderr,
    # which arcbench copies into run.log.
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
