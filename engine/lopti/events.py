"""The engine's fast `Event` and `Applied` builders (shared by all games: engine/core/fast.py)."""

from engine.core.fast import applied, event

__all__ = ["applied", "event"]
