"""The bench's HTTP side: the trivial agent driven over HTTP against `arcbench serve` by a minimal
standard-library client that loops as the official harness does (is_done, choose_action, one POST per
action on a kept-alive connection, each answer's JSON parsed into a FrameData). Prints one JSON line:
actions, seconds, and the agent's own microseconds per step (is_done + choose_action).

python3 http_loop.py URL MAX_ACTIONS GAME_ID...
"""

import http.client
import json
import os
import random
import sys
import time
from urllib.parse import urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.append(os.path.join(HERE, "..", "..", "..", "python", "compat"))

from arcengine import ActionInput, FrameData, GameAction, GameState  # noqa: E402
from trivial_agent import Trivial  # noqa: E402


class Client:
    def __init__(self, url):
        parsed = urlparse(url)
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port)
        self.headers = {"X-API-Key": "arcbench-bench", "Content-Type": "application/json", "Accept": "application/json"}
        self.cookies = ""

    def post(self, path, body):
        headers = dict(self.headers, Cookie=self.cookies) if self.cookies else self.headers
        self.connection.request("POST", path, json.dumps(body), headers)
        response = self.connection.getresponse()
        text = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookies = cookie.split(";", 1)[0]
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {text[:200]!r}")
        return json.loads(text)


def frame_of(raw):
    action_input = raw.get("action_input") or {}
    return FrameData(
        game_id=raw["game_id"],
        frame=raw["frame"],
        state=GameState(raw["state"]),
        levels_completed=raw["levels_completed"],
        win_levels=raw["win_levels"],
        action_input=ActionInput(id=GameAction.from_id(action_input.get("id", 0)), data=action_input.get("data") or {}),
        guid=raw.get("guid"),
        full_reset=raw.get("full_reset", False),
        available_actions=raw.get("available_actions", []),
    )


def play(client, card_id, game_id, max_actions):
    agent = Trivial(card_id=card_id, game_id=game_id, agent_name="trivial", ROOT_URL="", record=False)
    agent.MAX_ACTIONS = max_actions
    thinking = 0.0
    while True:
        started = time.perf_counter()
        done = agent.is_done(agent.frames, agent.frames[-1]) or agent.action_counter > agent.MAX_ACTIONS
        if not done:
            action = agent.choose_action(agent.frames, agent.frames[-1])
        thinking += time.perf_counter() - started
        if done:
            return agent.action_counter, thinking
        body = {"game_id": game_id}
        if action is GameAction.RESET:
            body["card_id"] = card_id
            if agent.guid:
                body["guid"] = agent.guid
        else:
            body["guid"] = agent.guid
        if action.is_complex():
            body["x"], body["y"] = action.action_data.x, action.action_data.y
        agent.append_frame(frame_of(client.post(f"/api/cmd/{action.name}", body)))
        agent.action_counter += 1


def main():
    url, max_actions, games = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    random.seed(1)
    client = Client(url)
    card_id = client.post("/api/scorecard/open", {"tags": ["bench"]})["card_id"]
    actions = 0
    thinking = 0.0
    started = time.perf_counter()
    for game_id in games:
        played, thought = play(client, card_id, game_id, max_actions)
        actions += played
        thinking += thought
    seconds = time.perf_counter() - started
    client.post("/api/scorecard/close", {"card_id": card_id})
    print(json.dumps({"actions": actions, "seconds": seconds, "agent_us_per_step": thinking / max(actions, 1) * 1e6}))


main()
