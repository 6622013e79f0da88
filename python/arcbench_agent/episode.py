"""One episode of a Python agent, arcbench holding the session (docs/agent-protocol.md §4), in the loop
the agent entry asks for: today's harness's (loop_current.py, the default) or, with
``params: {harness: gen1}``, the first harness's (loop_gen1.py). What both share is here: the agent
made as the harness makes it, frames as the agent sees them, the end of the episode."""

from __future__ import annotations

import gc
import inspect
import random
import sys
import traceback
from functools import partial
from typing import Any, Optional

from arcengine import ActionInput, FrameData, GameAction, GameState

from .channel import Channel
from .failures import failure_sentence
from .grids import frame_rows, grid_cells
from .usage import with_calls

# The keyword arguments of the official Agent's constructor, filled from the episode.
_ROOT_URL = "arcbench://agent-protocol"


# arcbench's own FrameData (python/compat) makes a frame's lists when an agent first reads them; the
# real arcengine's is made whole.
_DEFERS_FRAME = hasattr(FrameData, "defer_frame")


def frame_data(wire: dict[str, Any], grids: Optional[list[bytes]] = None, with_action_input: bool = True) -> FrameData:
    """A new FrameData of a protocol frame; ``grids``, its cell values when already checked. Today's
    harness's ``latest_frame`` leaves ``action_input`` at its default (``with_action_input=False``)."""
    cells = [grid_cells(grid) for grid in wire["grids"]] if grids is None else grids
    given = {"action_input": action_input_of(wire)} if with_action_input else {}
    data = FrameData(**frame_fields(wire), **given, frame=[] if _DEFERS_FRAME else frame_rows(cells))
    if _DEFERS_FRAME:
        data.defer_frame(partial(frame_rows, cells))
    return data


def frame_fields(wire: dict[str, Any]) -> dict[str, Any]:
    """The fields of a FrameData (and a FrameDataRaw) but its grids and action_input, from a protocol frame."""
    return {
        "game_id": wire["game_id"],
        "state": GameState(wire["state"]),
        "levels_completed": wire["levels_completed"],
        "win_levels": wire["win_levels"],
        "guid": wire["guid"],
        "full_reset": wire.get("full_reset", False),
        "available_actions": list(wire["available_actions"]),
    }


def action_input_of(wire: dict[str, Any]) -> ActionInput:
    """The frame's action_input; an id the engine does not know reads as RESET."""
    given = wire.get("action_input") or {}
    try:
        action = GameAction.from_id(given.get("id", 0))
    except ValueError:
        action = GameAction.RESET
    return ActionInput(id=action, data=given.get("data") or {}, reasoning=given.get("reasoning"))


def construct(agent_class: type, start: dict[str, Any], arc_env: Any = None) -> Any:
    """The agent, with ``params`` and ``seed`` set before its ``__init__`` runs (it may read them)."""
    seed = start["seed"]
    random.seed(seed)
    agent = agent_class.__new__(agent_class)
    agent.params = dict(start.get("params") or {})
    agent.seed = seed
    offered = {
        "card_id": start.get("card_id", ""),
        "game_id": start["game"]["game_id"],
        "agent_name": start.get("label", ""),
        "ROOT_URL": _ROOT_URL,
        "record": False,
        "arc_env": arc_env,
        "tags": ["arcbench", start.get("label", "")],
    }
    agent.__init__(**_accepted(agent_class.__init__, offered))
    return agent


def _accepted(init: Any, offered: dict[str, Any]) -> dict[str, Any]:
    parameters = inspect.signature(init).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return offered
    return {name: value for name, value in offered.items() if name in parameters}


def append_frame(agent: Any, frame: FrameData) -> None:
    if hasattr(agent, "append_frame"):
        agent.append_frame(frame)
    else:
        agent.frames.append(frame)
    # The official loop keeps every frame (and the 65 lists a grid of those the agent read), which the
    # cyclic garbage collector would scan again and again (half the layer's time per step by the
    # thousandth step). Frozen, they are left alone; the process lives one episode, so what freezing
    # keeps goes with it.
    gc.freeze()


HARNESSES = ("current", "gen1")


def harness(start: dict[str, Any]) -> str:
    """The loop the entry asks for in ``params: {harness: …}``; today's harness's by default."""
    chosen = (start.get("params") or {}).get("harness", "current")
    if chosen not in HARNESSES:
        raise ValueError(
            f"params.harness is {chosen!r}; write harness: current (the loop of today's ARC-AGI-3-Agents, the default) "
            "or harness: gen1 (the first harness's loop: an empty NOT_PLAYED frame first, its RESET opening the session)"
        )
    return chosen


def play(agent_class: type, start: dict[str, Any], channel: Channel) -> None:
    if harness(start) == "gen1":
        from .loop_gen1 import play_gen1

        play_gen1(agent_class, start, channel)
    else:
        from .loop_current import play_current

        play_current(agent_class, start, channel)


def resume(agent: Any, request: dict[str, Any], channel: Channel) -> None:
    """A restored agent (snapshot.py) goes on where its snapshot was taken, in the loop it played:
    awaiting the answer to the action it had decided."""
    if harness(request) == "gen1":
        from .loop_gen1 import resume_gen1

        resume_gen1(agent, channel)
    else:
        from .loop_current import resume_current

        resume_current(agent, request, channel)


def watch_snapshots(agent: Any, channel: Channel) -> None:
    """Lets the channel answer arcbench's `snapshot` requests for this agent (docs/agent-protocol.md §7)."""
    from .snapshot import Snapshots

    channel.snapshots = Snapshots(agent)


def send_done(agent: Any, channel: Channel, carried: list[Any]) -> None:
    """The loop ended by the agent's own test (is_done, or MAX_ACTIONS): said, then cleaned up."""
    reason = "MAX_ACTIONS" if agent.action_counter > agent.MAX_ACTIONS else "is_done"
    channel.send(with_calls({"type": "done", "reason": reason, "details": {"action_counter": agent.action_counter}}, carried))
    channel.receive()
    finish(agent, channel)


def finish(agent: Any, channel: Channel) -> None:
    """The official harness's clean-up after its loop; arcbench gives it about a second. The episode's
    result is final by now, so a failure goes to run.log (stderr), where its author can find it."""
    if not hasattr(agent, "cleanup"):
        return
    try:
        agent.cleanup()
    except Exception as error:
        print(f"{type(agent).__name__}.cleanup() failed after the episode (its result stands): {failure_sentence(error)}", file=sys.stderr, flush=True)
        traceback.print_exc()
