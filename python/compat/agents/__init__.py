"""The `agents` package of the official harness as far as agents import it (``agents.agent.Agent``),
standard library only. Used when the real package is not importable."""

from .agent import Agent

__all__ = ["Agent"]
