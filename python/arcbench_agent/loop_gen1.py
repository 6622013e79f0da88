"""The first harness's loop (``params: {harness: gen1}``), as arcbench played it before today's harness:

    while not agent.is_done(agent.frames, agent.frames[-1]) and agent.action_counter <= agent.MAX_ACTIONS:
        action = agent.choose_action(agent.frames, agent.frames[-1])
        ...the action is taken, its frame appended, action_counter += 1

The agent starts on the empty NOT_PLAYED frame; its RESET there is answered with the session arcbench
opened. Each chosen member's reasoning and data are reset once read. arcbench's budgets end the loop
too (an `end` instead of a frame), whichever comes first.
"""

from __future__ import annotations

import json
import time
from typing import Any, Optional

from arcengine import FrameData, GameAction

from .channel import Channel
from .episode import append_frame, construct, finish, frame_data, send_done, watch_snapshots
from .usage import reported_calls, with_calls


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


def play_gen1(agent_class: type, start: dict[str, Any], channel: Channel) -> None:
    agent = construct(agent_class, start)
    agent.timer = time.time()  # as the harness's main() sets it: agents report seconds and fps from it
    watch_snapshots(agent, channel)
    _loop(agent, frame_data(start["frame"]), channel)


def resume_gen1(agent: Any, channel: Channel) -> None:
    """A restored agent awaits the answer to the action it had decided, then plays on (the host
    watches its snapshots: their record of what __init__ made is taken before the restore)."""
    if _answered(agent, channel):
        _loop(agent, None, channel)


def _loop(agent: Any, opening: Optional[FrameData], channel: Channel) -> None:
    carried: list[Any] = []  # the opening RESET's model calls, sent with the next answer
    while not agent.is_done(agent.frames, agent.frames[-1]) and agent.action_counter <= agent.MAX_ACTIONS:
        answer = take_answer(agent.choose_action(agent.frames, agent.frames[-1]))
        if opening is not None:
            # The first harness's first RESET opens the session; arcbench opened it already.
            append_frame(agent, opening)
            opening = None
            if answer["action"] == 0:
                carried = reported_calls(answer)
                agent.action_counter += 1
                continue
        channel.send(with_calls(answer, carried))
        carried = []
        if not _answered(agent, channel):
            return
    send_done(agent, channel, carried)


def _answered(agent: Any, channel: Channel) -> bool:
    """The answer to the action sent: appended (True), or the episode's end, cleaned up (False)."""
    reply = channel.receive()
    if reply["type"] != "frame":
        finish(agent, channel)
        return False
    append_frame(agent, frame_data(reply["frame"]))
    agent.action_counter += 1
    return True
