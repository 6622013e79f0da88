"""arcbench's Python agent layer: a client of the agent protocol arcbench.agent/1
(docs/agent-protocol.md) that runs agents written for the official harness unchanged."""

PROTOCOL = "arcbench.agent/1"
