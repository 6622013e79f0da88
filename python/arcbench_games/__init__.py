"""The game host: runs official ARC-AGI-3 games (ARCBaseGame subclasses on the user's own arcengine) for
arcbench's ReferenceService, one process of a pool, over JSON lines (docs/protocol.md §10)."""
