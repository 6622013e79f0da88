"""``agents.structs``: where older versions of the official harness kept the frame and action types,
before they moved to ``arcengine``. Agents written then import them from here."""

from arcengine import ActionInput, ComplexAction, FrameData, GameAction, GameState, SimpleAction

__all__ = ["ActionInput", "ComplexAction", "FrameData", "GameAction", "GameState", "SimpleAction"]
