"""The update ids this process saw lately: a duplicate of one is not handled again
(handlers/chat/redelivery.py)."""

from __future__ import annotations

from collections import deque

# Update ids remembered in this process (a duplicate comes within seconds or after a restart).
RECENT = 10_000


class Recent:
    """The last `RECENT` update ids seen by this process."""

    def __init__(self, size: int = RECENT):
        self._order: deque[int] = deque()
        self._ids: set[int] = set()
        self._size = size

    def add(self, update_id: int) -> bool:
        """Remember the id; False when it was already there."""
        if update_id in self._ids:
            return False
        self._ids.add(update_id)
        self._order.append(update_id)
        if len(self._order) > self._size:
            self._ids.discard(self._order.popleft())
        return True
