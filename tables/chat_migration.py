"""When a group changes under its tables: it became a supergroup (migration), or it closed to
the bot. The chat keeper (handlers/delivery/chat_keeper.py) hears of it; this job moves or ends the
chat's tables, under their locks.
"""

from __future__ import annotations

import contextlib

from tables.models import CANCELLED, CHAT_LOST, FINISHED, LOBBY, PLAYING
from tables.table_core import TableCore


class ChatMigration:
    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def migrate_chat(self, old: int, new: int) -> list[int]:
        """The group `old` became the supergroup `new`: its tables, messages and records move
        there, under the locks of its chat and of its open tables, once (a second call moves
        nothing). Returns the open tables moved; each is put on the change feed, to be posted
        again in the new chat."""
        if old == new:
            return []
        async with contextlib.AsyncExitStack() as held:
            # The chat's locks first (no lobby opens meanwhile), then its tables' (no move is
            # applied meanwhile), each in one order.
            for chat in sorted((old, new)):
                await held.enter_async_context(self.core.lock(("chat", chat, 0)))
            for table in await self.core.store.live_tables_in_chat(old):
                await held.enter_async_context(self.core.lock(table.table_id))
            moved = await self.core.store.move_chat(old, new)
        for table_id in moved:
            self.core.feed.put(table_id)
        return moved

    async def end_lost_chat(self, chat_id: int) -> list[int]:
        """The bot can no longer write in `chat_id`: its open tables end where they stand (a
        lobby is cancelled, a match finishes; the players' private chats show the standings)
        and their timers stop. Returns the tables ended."""
        ended: list[int] = []
        for found in await self.core.store.live_tables_in_chat(chat_id):
            async with self.core.lock(found.table_id):
                loaded = await self.core.load(found.table_id)
                if loaded is None or loaded.table.status not in (LOBBY, PLAYING) or loaded.table.chat_id != chat_id:
                    continue
                table = loaded.table
                finished = table.status == PLAYING and loaded.state is not None
                table.status, table.closed_reason = (FINISHED if finished else CANCELLED), CHAT_LOST
                table.deadline = table.deadline_seconds = None
                table.paused_until = None
                table.nudged = []
                table.windows = {}
                table.computer_turn = False
                await self.core.store.save_table(table, finished=finished)
                self.core.arm(table)
                self.core.changed(loaded)
                ended.append(table.table_id)
        return ended
