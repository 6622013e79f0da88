"""An agent's state as the protocol's `snapshot` answer, and put back by `restore`
(docs/agent-protocol.md §7), so that an episode killed with arcbench goes on where it was.

By default the state is the agent's attributes (its frames, counters, an LLM agent's messages),
pickled, compressed and base64-encoded into the JSON line. An attribute that cannot be pickled is left
out when ``__init__`` made it (an API client, a lock): restoring runs ``__init__`` again, which makes
it anew. One made later (a socket opened while playing) cannot be left out without losing what it
holds, so the snapshot is refused, naming it; arcbench then plays that episode again from its start.

A class that defines ``snapshot()`` and ``restore(state)`` keeps what it chooses instead:
``snapshot()`` returns any picklable value, and ``restore(state)`` gets it back on an agent that
``__init__`` has just made. The layer keeps ``action_counter`` beside it (the loop counts with it)."""

from __future__ import annotations

import base64
import pickle
import random
import zlib
from typing import Any

# A snapshot larger than this (once encoded) is refused: arcbench writes it to disk twice a step.
MAX_STATE_CHARS = 64 * 1024 * 1024


class Snapshots:
    """Takes the snapshots of one playing agent; knows which attributes its ``__init__`` made."""

    def __init__(self, agent: Any) -> None:
        self._agent = agent
        self._made_by_init = frozenset(vars(agent))

    def answer(self) -> dict[str, Any]:
        """The `snapshot` answer: the state, or why there is none."""
        try:
            state = encode(self._state())
        except Unpicklable as why:
            return {"type": "snapshot", "refused": str(why)}
        if len(state) > MAX_STATE_CHARS:
            return {"type": "snapshot", "refused": f"{_class_name(self._agent)}'s state is {len(state) // 2**20} MiB as a snapshot, over {MAX_STATE_CHARS // 2**20} MiB; define snapshot() and restore(state) on it to keep less"}
        return {"type": "snapshot", "state": state}

    def _state(self) -> dict[str, Any]:
        # The episode seeded `random` (and agents draw from it): its state goes with the agent's.
        return {**self._agent_state(), "random": random.getstate()}

    def _agent_state(self) -> dict[str, Any]:
        agent = self._agent
        if _overrides(agent):
            return {"own": _picklable(agent.snapshot(), f"{_class_name(agent)}.snapshot()'s value"), "action_counter": agent.action_counter}
        attributes = dict(vars(agent))
        try:
            pickle.dumps(attributes, pickle.HIGHEST_PROTOCOL)
            return {"attributes": attributes}
        except Exception:
            return {"attributes": self._without_remade(attributes)}

    def _without_remade(self, attributes: dict[str, Any]) -> dict[str, Any]:
        kept = {}
        for name, value in attributes.items():
            try:
                pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
            except Exception as error:
                if name in self._made_by_init:
                    continue
                raise Unpicklable(
                    f"{_class_name(self._agent)}.{name} ({type(value).__name__}) cannot be pickled ({type(error).__name__}: {error}); "
                    f"make it in __init__ (it is then made anew on restore), or define snapshot() and restore(state) on {_class_name(self._agent)}"
                ) from None
            kept[name] = value
        return kept


def restore(agent: Any, state: str) -> None:
    """Puts a snapshot back on an agent that ``__init__`` has just made."""
    saved = pickle.loads(zlib.decompress(base64.b64decode(state)))
    random.setstate(saved["random"])
    if "own" in saved:
        agent.restore(saved["own"])
        agent.action_counter = saved["action_counter"]
    else:
        vars(agent).update(saved["attributes"])


class Unpicklable(Exception):
    """The agent's state cannot be pickled; the message says which part and what to do."""


def encode(state: Any) -> str:
    # Frames repeat from step to step: compressed, a long episode's grids take a fraction of their size.
    return base64.b64encode(zlib.compress(pickle.dumps(state, pickle.HIGHEST_PROTOCOL), 1)).decode("ascii")


def _picklable(value: Any, what: str) -> Any:
    try:
        pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception as error:
        raise Unpicklable(f"{what} cannot be pickled ({type(error).__name__}: {error})") from None
    return value


def _overrides(agent: Any) -> bool:
    return callable(getattr(agent, "snapshot", None)) and callable(getattr(agent, "restore", None))


def _class_name(agent: Any) -> str:
    return type(agent).__name__
