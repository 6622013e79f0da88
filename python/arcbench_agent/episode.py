"""One episode in the official harness's loop, arcbench holding the session (docs/agent-protocol.md §4):

    while not agent.is_done(agent.frames, agent.frames[-1]) and agent.action_counter <= agent.MAX_ACTIONS:
        action = agent.choose_action(agent.frames, agent.frames[-1])
        ...the action is taken, its frame appended, action_counter += 1

The agent starts on the empty NOT_PLAYED frame; its RESET there is answered with the session arcbench
opened. arcbench's budgets end the loop too (an `end` instead of a frame), whichever comes first.
"""

from __future__ import annotations

import gc
import inspect
import json
import random
import sys
import time
import traceback
from functools import partial
from typing import Any, Optional

from arcengine import ActionInput, FrameData, GameAction, GameState

from .channel import Channel
from .failures import failure_sentence
from .grids import frame_rows, grid_cells
from .snapshot import Snapshots
from .usage import reported_calls, with_calls

# The keyword arguments of the official Agent's constructor, filled from the episode.
_ROOT_URL = "arcbench://agent-protocol"


# arcbench's own FrameData (python/compat) makes a frame's lists when an agent first reads them; the
# real arcengine's is made whole.
_DEFERS_FRAME = hasattr(FrameData, "defer_frame")


def frame_data(wire: dict[str, Any]) -> FrameData:
    action_input = wire.get("action_input") or {}
    try:
        action = GameAction.from_id(action_input.get("id", 0))
    except ValueError:
        action = GameAction.RESET
    grids = [grid_cells(grid) for grid in wire["grids"]]
    data = FrameData(
        game_id=wire["game_id"],
        frame=[] if _DEFERS_FRAME else frame_rows(grids),
        state=GameState(wire["state"]),
        levels_completed=wire["levels_completed"],
        win_levels=wire["win_levels"],
        action_input=ActionInput(id=action, data=action_input.get("data") or {}, reasoning=action_input.get("reasoning")),
        guid=wire["guid"],
        full_reset=wire.get("full_reset", False),
        available_actions=wire["available_actions"],
    )
    if _DEFERS_FRAME:
        data.defer_frame(partial(frame_rows, grids))
    return data


def construct(agent_class: type, start: dict[str, Any]) -> Any:
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
        "arc_env": None,
        "tags": ["arcbench", start.get("label", "")],
    }
    agent.__init__(**_accepted(agent_class.__init__, offered))
    return agent


def _accepted(init: Any, offered: dict[str, Any]) -> dict[str, Any]:
    parameters = inspect.signature(init).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return offered
    return {name: value for name, value in offered.items() if name in parameters}


def take_answer(action: Any) -> dict[str, Any]:
    """The `act` answer for a chosen action. GameAction members are shared singletons that agents
    mutate: their reasoning and data are read, then reset, so nothing leaks into the next step."""
    if not isinstance(action, GameAction):
        raise TypeError(f"choose_action returned {action!r}; return a GameAction member such as GameAction.ACTION1")
    answer: dict[str, Any] = {"type": "act", "action": action.value}
    data = action.action_data
    if action.is_complex():
        answer["x"] = getattr(data, "x", 0)
        answer["y"] = getattr(data, "y", 0)
    reasoning = getattr(action, "reasoning", None)
    if reasoning is not None:
        try:
            json.dumps(reasoning, allow_nan=False)
        except (TypeError, ValueError):
            raise TypeError(f"{action.name}.reasoning must be JSON-serialisable (a string, number, list or dict), got {type(reasoning).__name__}") from None
        answer["reasoning"] = reasoning
    action.reasoning = None
    action.action_data = action.action_type()
    return answer


def _append(agent: Any, frame: FrameData) -> None:
    if hasattr(agent, "append_frame"):
        agent.append_frame(frame)
    else:
        agent.frames.append(frame)
    # The official loop keeps every frame (and the 65 lists a grid of those the agent read), which the
    # cyclic garbage collector would scan again and again (half the layer's time per step by the
    # thousandth step). Frozen, they are left alone; the process lives one episode, so what freezing
    # keeps goes with it.
    gc.freeze()


def play(agent_class: type, start: dict[str, Any], channel: Channel) -> None:
    agent = construct(agent_class, start)
    agent.timer = time.time()  # as the harness's main() sets it: agents report seconds and fps from it
    channel.snapshots = Snapshots(agent)
    play_from(agent, frame_data(start["frame"]), channel)


def resume(agent: Any, channel: Channel) -> None:
    """A restored agent (snapshot.py) goes on where its snapshot was taken: awaiting its action's answer."""
    reply = channel.receive()
    if reply["type"] != "frame":
        _finish(agent, channel)
        return
    _append(agent, frame_data(reply["frame"]))
    agent.action_counter += 1
    play_from(agent, None, channel)


def play_from(agent: Any, opening: Optional[FrameData], channel: Channel) -> None:
    carried: list[Any] = []  # the opening RESET's model calls, sent with the next answer
    while not agent.is_done(agent.frames, agent.frames[-1]) and agent.action_counter <= agent.MAX_ACTIONS:
        answer = take_answer(agent.choose_action(agent.frames, agent.frames[-1]))
        if opening is not None:
            # The official harness's first RESET opens the session; arcbench opened it already.
            _append(agent, opening)
            opening = None
            if answer["action"] == 0:
                carried = reported_calls(answer)
                agent.action_counter += 1
                continue
        channel.send(with_calls(answer, carried))
        carried = []
        reply = channel.receive()
        if reply["type"] != "frame":
            _finish(agent, channel)
            return
        _append(agent, frame_data(reply["frame"]))
        agent.action_counter += 1
    reason = "MAX_ACTIONS" if agent.action_counter > agent.MAX_ACTIONS else "is_done"
    channel.send(with_calls({"type": "done", "reason": reason, "details": {"action_counter": agent.action_counter}}, carried))
    channel.receive()
    _finish(agent, channel)


def _finish(agent: Any, channel: Channel) -> None:
    """The official harness's clean-up after its loop; arcbench gives it about a second. The episode's
    result is final by now, so a failure goes to run.log (stderr), where its author can find it."""
    if not hasattr(agent, "cleanup"):
        return
    try:
        agent.cleanup()
    except Exception as error:
        print(f"{type(agent).__name__}.cleanup() failed after the episode (its result stands): {failure_sentence(error)}", file=sys.stderr, flush=True)
        traceback.print_exc()
