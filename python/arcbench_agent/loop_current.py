"""Today's harness's loop (ARC-AGI-3-Agents' ``Agent.main``), the default, on what an agent observes:

    while not agent.is_done(agent.frames, agent.frames[-1]) and agent.action_counter <= agent.MAX_ACTIONS:
        action = agent.choose_action(agent.frames, <a new FrameData of arc_env's last answer>)
        ...arc_env.step(action): its frame appended, action_counter += 1

Making the environment already reset the game (arcbench's session, `start`'s frame), so the first
``latest_frame`` is that frame, while ``frames`` holds only the empty one; every action the agent
chooses is sent, its first RESET too (a real reset). Members keep their data and reasoning, as the
harness leaves them; a reasoning that is not a dict is sent as ``{"text": str(reasoning)}``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from arcengine import GameAction

from .channel import Channel
from .environment import Environment
from .episode import append_frame, construct, finish, send_done, watch_snapshots


def play_current(agent_class: type, start: dict[str, Any], channel: Channel) -> None:
    env = Environment(start["game"], start["frame"])
    agent = construct(agent_class, start, arc_env=env)
    agent.timer = time.time()  # as main() sets it, once the agent is made
    watch_snapshots(agent, channel)
    _loop(agent, env, channel)


def resume_current(agent: Any, request: dict[str, Any], channel: Channel) -> None:
    """A restored agent awaits the answer to the action it had decided, then plays on. Its arc_env
    came back with its snapshot when it could; else it is made again from the session's opening frame."""
    env = agent.arc_env if isinstance(getattr(agent, "arc_env", None), Environment) else Environment(request["game"], request["frame"])
    agent.arc_env = env
    if _answered(agent, env, channel):
        _loop(agent, env, channel)


def _loop(agent: Any, env: Environment, channel: Channel) -> None:
    sent: dict[GameAction, Any] = {}
    while not agent.is_done(agent.frames, agent.frames[-1]) and agent.action_counter <= agent.MAX_ACTIONS:
        channel.send(act(agent.choose_action(agent.frames, env.latest_frame()), sent))
        if not _answered(agent, env, channel):
            return
    send_done(agent, channel, [])


def _answered(agent: Any, env: Environment, channel: Channel) -> bool:
    """The answer to the action sent: observed and appended (True), or the episode's end, cleaned up (False)."""
    reply = channel.receive()
    if reply["type"] != "frame":
        finish(agent, channel)
        return False
    env.observe(reply["frame"])
    append_frame(agent, env.latest_frame())
    agent.action_counter += 1
    return True


def act(action: Any, sent: dict[GameAction, Any]) -> dict[str, Any]:
    """The `act` answer for a chosen action, read as the harness reads it (the member's data and
    reasoning, left as they are). ``sent`` remembers each member's reasoning last sent: a reasoning
    sent again unchanged is sent as the harness does, but its model usage is not counted twice."""
    if not isinstance(action, GameAction):
        raise TypeError(f"choose_action returned {action!r}; return a GameAction member such as GameAction.ACTION1")
    answer: dict[str, Any] = {"type": "act", "action": action.value}
    if action.is_complex():
        answer["x"] = getattr(action.action_data, "x", 0)
        answer["y"] = getattr(action.action_data, "y", 0)
    reasoning = getattr(action, "reasoning", None)
    if reasoning is None:
        return answer
    if not isinstance(reasoning, dict):
        reasoning = {"text": str(reasoning)}
    try:
        json.dumps(reasoning, allow_nan=False)
    except (TypeError, ValueError):
        raise TypeError(f"{action.name}.reasoning must be JSON-serialisable (a string, number, list or dict), got {type(reasoning).__name__}") from None
    answer["reasoning"] = reasoning
    if sent.get(action) is action.reasoning:
        answer["usage"] = []
    sent[action] = action.reasoning  # held, so that no new object can take its identity
    return answer
