"""Committed changes on their way out: the table service puts, the publisher takes.

Only the newest change of a table is kept: when several moves land before the publisher gets
to a table, it renders the latest committed state once. This is what keeps data flowing one
way: the service never waits for Telegram, and never calls up into the layer that talks to it.
"""

from __future__ import annotations

import asyncio

from tables.models import Loaded


class ChangeFeed:
    def __init__(self) -> None:
        self._latest: dict[int, Loaded | None] = {}
        self._ready = asyncio.Event()

    def put(self, table_id: int, loaded: Loaded | None = None) -> None:
        """Table `table_id` changed; `loaded` is its committed state, or None to read it again."""
        self._latest[table_id] = loaded
        self._ready.set()

    async def take(self) -> tuple[int, Loaded | None]:
        """The oldest changed table and its newest snapshot (waits for one)."""
        while not self._latest:
            self._ready.clear()
            await self._ready.wait()
        table_id = next(iter(self._latest))
        return table_id, self._latest.pop(table_id)

    def pending(self) -> int:
        return len(self._latest)
