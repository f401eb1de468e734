"""What a table's messages show, as the publisher reports it (handlers/delivery/publisher.py): a digest
per message, the revision the messages caught up with, and the table's open polls.
"""

from __future__ import annotations

from tables.models import Shown
from tables.table_core import TableCore


class MessageRecords:
    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def screens(self, table_id: int) -> dict[str, Shown]:
        return await self.core.store.screens_of(table_id)

    async def record_screen(self, table_id: int, slot: str, shown: Shown | None) -> None:
        async with self.core.lock(table_id):
            await self.core.store.record_screen(table_id, slot, shown)

    async def record_screens(self, table_id: int, shown: dict[str, Shown], published: int) -> None:
        """What several messages show now, and that the table's messages caught up with
        `published` (its revision), in one write.

        The record never holds the table's lock while it waits for its turn to write (a press on
        the table would wait behind other tables' moves): it writes when its turn comes and the
        lock is free, which makes the write as if under the lock (writes take turns, and nothing
        else records the table's messages); while a move of the table is under way, that goes first."""
        lock = self.core.lock(table_id)
        while not await self.core.store.record_screens(table_id, shown, published, unless=lock.locked):
            async with lock:
                pass

    async def record_poll(self, poll_id: str, table_id: int, key: str, chat_id: int, message_id: int) -> None:
        """A poll was opened for the table (its answers are looked up by poll id)."""
        await self.core.store.add_poll(poll_id, table_id, key, chat_id, message_id)

    async def close_polls(self, table_id: int) -> None:
        await self.core.store.close_polls(table_id)
