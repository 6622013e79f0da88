"""Model usage an agent reported with the opening RESET, which arcbench answers itself (the session is
open before the agent runs: docs/agent-protocol.md §4). That answer is never sent, so its calls ride
on the next answer the agent gives, an `act` or a `done`, and are counted like any other."""

from __future__ import annotations

from typing import Any


def reported_calls(answer: dict[str, Any]) -> list[Any]:
    """The model calls in an answer: its `usage`, or the `usage` inside its reasoning."""
    if "usage" in answer:
        usage = answer["usage"]
    else:
        reasoning = answer.get("reasoning")
        usage = reasoning.get("usage") if isinstance(reasoning, dict) else None
    if isinstance(usage, dict):
        return [usage]
    return list(usage) if isinstance(usage, list) else []


def with_calls(answer: dict[str, Any], earlier: list[Any]) -> dict[str, Any]:
    """The answer carrying ``earlier`` calls before its own, all in its `usage` field (which, when
    present, is the whole of the step's usage: the reasoning's own is moved there)."""
    if not earlier:
        return answer
    own = reported_calls(answer)
    combined = dict(answer)
    reasoning = combined.get("reasoning")
    if "usage" not in combined and isinstance(reasoning, dict) and "usage" in reasoning:
        rest = {key: value for key, value in reasoning.items() if key != "usage"}
        if rest:
            combined["reasoning"] = rest
        else:
            del combined["reasoning"]
    combined["usage"] = [*earlier, *own]
    return combined
