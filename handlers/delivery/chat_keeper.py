"""What becomes of tables when their chat changes: a group upgraded to a supergroup, a chat the
bot can no longer write to, a player who blocked the bot or came back.

The keeper is the one owner of whether a chat can be written to. It learns it from whichever
comes first: a failed call (the publisher tells it of its deliveries; the flood limiter, which
every call passes, of any call a chat refused with 403), an update (handlers/chat/chat_changes.py:
`my_chat_member`, the migration service messages), or a player opening their private chat again
(/start, /hand). Each change is acted on once: a moved group's tables move with it and are posted
again in the new chat; a lost chat is given up (no call goes to it any more) and its tables end,
the players' private chats showing the standings; a blocked player is marked unreachable (their
`dm_ok`) at every table, and reachable again when they come back.
"""

from __future__ import annotations

import asyncio
import logging

from handlers.delivery.courier import Courier
from handlers.delivery.publisher import Publisher
from tables.service import TableService

log = logging.getLogger(__name__)


class ChatKeeper:
    def __init__(self, service: TableService, publisher: Publisher, courier: Courier):
        self.service = service
        self.publisher = publisher
        self.courier = courier
        # Groups known to have moved (old id -> new id) in this process.
        self._moved: dict[int, int] = {}
        # Reports of refused calls being acted on (kept so that they finish).
        self._reports: set[asyncio.Task[None]] = set()

    async def moved(self, old: int, new: int) -> None:
        """The group `old` is the supergroup `new` now: its tables, messages and records go there."""
        if self._moved.get(old) == new:
            return
        self._moved[old] = new
        self.courier.give_up(old, f"upgraded to supergroup {new}")
        self.courier.revive(new)
        tables = await self.service.migration.migrate_chat(old, new)
        self.publisher.chat_moved(tables)
        log.info("group %s was upgraded to supergroup %s: %d open tables moved there", old, new, len(tables))

    async def lost(self, chat_id: int, reason: str) -> None:
        """The bot can no longer write in `chat_id` (a group): stop calling it and end its tables."""
        if not self.courier.give_up(chat_id, reason):
            return
        ended = await self.service.migration.end_lost_chat(chat_id)
        log.warning(
            "chat %s is closed to the bot (%s): no more calls to it, %d open tables ended", chat_id, reason, len(ended)
        )

    def back(self, chat_id: int) -> None:
        """The bot is in the chat again, with the right to write."""
        if self.courier.gone(chat_id) is not None:
            log.info("chat %s is open to the bot again", chat_id)
        self.courier.revive(chat_id)

    def refused(self, chat_id: int, reason: str) -> None:
        """A call was refused with 403 (the flood limiter tells every one): a user's private chat
        is closed to the bot, or a group is. Acted on in a task of its own: the report comes from
        inside a call, which must not wait for table locks."""
        if chat_id > 0:
            report = self.user_unreachable(chat_id)
        else:
            report = self.lost(chat_id, reason)
        task = asyncio.get_running_loop().create_task(report)
        self._reports.add(task)
        task.add_done_callback(self._reports.discard)

    async def user_unreachable(self, user_id: int, table_id: int | None = None) -> None:
        """The user's private chat refuses the bot: every group table of theirs (and `table_id`,
        whose message failed) tells its group."""
        tables = await self.service.reachability.mark_user_unreachable(user_id, table_id)
        if tables:
            log.info("user %s cannot be written to: marked unreachable at %d tables", user_id, len(tables))

    async def user_back(self, user_id: int) -> list[int]:
        """The user opened their private chat (/start, /hand, an unblock): returns the tables whose
        hands are to be sent again."""
        return await self.service.reachability.mark_reachable(user_id)
