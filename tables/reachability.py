"""Reachability at the tables: whether a player's private chat takes the bot's messages.

The chat keeper (handlers/delivery/chat_keeper.py) is the one that decides; this job writes what it
decided: the user's `dm_ok`, and each running table's list of players it cannot reach (its
group is told until they open their private chat again).
"""

from __future__ import annotations

from tables.models import PLAYING
from tables.table_core import TableCore


class Reachability:
    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def _add_unreachable(self, table_id: int, user_id: int) -> bool:
        """Mark the player unreachable at one running table; False if there is nothing to mark."""
        async with self.core.lock(table_id):
            table = await self.core.store.get_table(table_id)
            if table is None or table.status != PLAYING or user_id in table.unreachable:
                return False
            table.unreachable = [*table.unreachable, user_id]
            await self.core.save(table)
            return True

    async def mark_reachable(self, user_id: int) -> list[int]:
        """The player opened their private chat again; returns the tables it had failed for."""
        await self.core.store.set_dm_ok(user_id, True)
        recovered: list[int] = []
        for found in await self.core.store.live_tables_of_user(user_id):
            if user_id not in found.unreachable:
                continue
            async with self.core.lock(found.table_id):
                table = await self.core.store.get_table(found.table_id)
                if table is not None and user_id in table.unreachable:
                    table.unreachable = [user for user in table.unreachable if user != user_id]
                    await self.core.save(table)
                    recovered.append(table.table_id)
        return recovered

    async def mark_user_unreachable(self, user_id: int, table_id: int | None = None) -> list[int]:
        """The user's private chat refuses the bot (blocked, or never opened): every running group
        table of theirs, and `table_id` whose message failed, tells its group until they open it
        again. Only the chat keeper (handlers/delivery/chat_keeper.py) calls this and `mark_reachable`."""
        await self.core.store.set_dm_ok(user_id, False)
        marked: list[int] = []
        for table in await self.core.store.live_tables_of_user(user_id):
            # Checked again under the table's lock; tables with nothing to mark cost no second read.
            wanted = table.chat_id < 0 or table.table_id == table_id
            if not wanted or table.status != PLAYING or user_id in table.unreachable:
                continue
            if await self._add_unreachable(table.table_id, user_id):
                marked.append(table.table_id)
        return marked
