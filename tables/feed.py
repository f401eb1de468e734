"""Committed changes on their way out: the table service puts, the publisher takes, and
listeners (the Mini App's live hub, the record of open branches) are told as each comes.

Only the newest change of a table is kept: when several moves land before the publisher gets
to a table, it renders the latest committed state once. This is what keeps data flowing one
way: the service never waits for Telegram, and never calls up into the layer that talks to it.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from tables.models import Loaded


class Listener(Protocol):
    """Told of each change as it is put, synchronously: it must only take note (and wake its own
    task), never wait."""

    def changed(self, table_id: int, loaded: Loaded | None) -> None: ...


class ChangeFeed:
    def __init__(self) -> None:
        self._latest: dict[int, Loaded | None] = {}
        self._ready = asyncio.Event()
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def put(self, table_id: int, loaded: Loaded | None = None) -> None:
        """Table `table_id` changed; `loaded` is its committed state, or None to read it again."""
        self._latest[table_id] = loaded
        self._ready.set()
        for listener in self._listeners:
            listener.changed(table_id, loaded)

    async def take(self) -> tuple[int, Loaded | None]:
        """The oldest changed table and its newest snapshot (waits for one)."""
        while not self._latest:
            self._ready.clear()
            await self._ready.wait()
        table_id = next(iter(self._latest))
        return table_id, self._latest.pop(table_id)

    def pending(self) -> int:
        return len(self._latest)
