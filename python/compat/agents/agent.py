"""``Agent``: the base class of the official harness, with the attributes and the constructor's keyword
arguments agents use. arcbench drives its loop (arcbench_agent/episode.py): today's harness's by
default, the first harness's with ``params: {harness: gen1}``; ``is_done`` is asked before every
``choose_action``, and it plays while ``action_counter <= MAX_ACTIONS``."""

from __future__ import annotations

import logging
import os
import time
from abc import ABC, abstractmethod
from typing import Any, Optional

from arcengine import FrameData, GameAction, GameState

logger = logging.getLogger()


class Agent(ABC):
    """An agent that plays one game. Set by arcbench before ``__init__`` runs: ``params`` (the agent
    entry's params, a dict) and ``seed`` (the episode's seed; ``random`` is seeded with it)."""

    MAX_ACTIONS: int = 80
    ROOT_URL: str

    action_counter: int = 0
    timer: float = 0
    agent_name: str
    card_id: str
    game_id: str
    guid: str
    frames: list[FrameData]
    tags: list[str]
    params: dict[str, Any] = {}
    seed: int = 0

    # Read by templates as the harness's Agent sets them: headers for their own requests, AgentOps'
    # trace (none here), and _cleanup, the once-only flag every cleanup() checks first.
    headers: dict[str, str]
    trace: Any = None
    _cleanup: bool

    def __init__(
        self,
        card_id: str = "",
        game_id: str = "",
        agent_name: str = "",
        ROOT_URL: str = "",
        record: bool = False,
        arc_env: Any = None,
        tags: Optional[list[str]] = None,
        **_ignored: Any,
    ) -> None:
        self.ROOT_URL = ROOT_URL
        self.card_id = card_id
        self.game_id = game_id
        self.guid = ""
        self.agent_name = agent_name
        self.tags = tags or []
        self.frames = [FrameData(levels_completed=0)]
        self.arc_env = arc_env
        self.timer = time.time()
        self._cleanup = True
        self.headers = {"X-API-Key": os.getenv("ARC_API_KEY", ""), "Accept": "application/json"}

    @property
    def state(self) -> GameState:
        return self.frames[-1].state

    @property
    def levels_completed(self) -> int:
        return self.frames[-1].levels_completed

    @property
    def seconds(self) -> float:
        return (time.time() - self.timer) * 100 // 1 / 100

    @property
    def fps(self) -> float:
        if self.action_counter == 0:
            return 0.0
        return round(self.action_counter / max(self.seconds, 0.1), 2)

    @property
    def is_playback(self) -> bool:
        # arcbench plays agents; the harness's Playback replays recordings, which arcbench's replay agent does.
        return False

    @property
    def name(self) -> str:
        return f"{self.game_id}.{type(self).__name__.lower()}"

    def append_frame(self, frame: FrameData) -> None:
        self.frames.append(frame)
        if frame.guid:
            self.guid = frame.guid

    def cleanup(self, *_args: Any, **_kwargs: Any) -> None:
        """Called once after the loop; override to release what the agent holds."""
        if self._cleanup:
            self._cleanup = False
            logger.info(f"Finishing: agent took {self.action_counter} actions, took {self.seconds} seconds")

    @abstractmethod
    def is_done(self, frames: list[FrameData], latest_frame: FrameData) -> bool:
        raise NotImplementedError

    @abstractmethod
    def choose_action(self, frames: list[FrameData], latest_frame: FrameData) -> GameAction:
        raise NotImplementedError
