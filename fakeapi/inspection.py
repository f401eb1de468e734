"""What a test reads back from the fake: messages, documents, callback answers and their timing,
command menus, and waiting until the bot has done something or gone quiet.  A mixin of FakeBotAPI."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from fakeapi.records import CallbackQuery, FakeUser, MessageRecord
from fakeapi.world import ADMIN_STATUSES

# How long a wait goes on by default before it fails: a bound against a hung test, not a speed
# (a loaded machine may take many seconds; a wait ends as soon as its condition holds).
HANG_SECONDS = 60.0


class Inspection:
    # ----------------------------------------------------------------- messages
    def messages(self, chat_id: int) -> list[MessageRecord]:
        """All messages of a chat in order (bot's and users', deleted ones included)."""
        return list(self._messages.get(int(chat_id), []))

    def bot_messages(self, chat_id: int, include_deleted: bool = False) -> list[MessageRecord]:
        return [
            m for m in self.messages(chat_id) if m.from_bot and m.service is None and (include_deleted or not m.deleted)
        ]

    def last_message(self, chat_id: int, from_bot: bool = True) -> MessageRecord | None:
        """The latest non-deleted message (by default: sent by the bot) in the chat."""
        for m in reversed(self.messages(chat_id)):
            if not m.deleted and m.service is None and (m.from_bot or not from_bot):
                return m
        return None

    def message(self, chat_id: int, message_id: int) -> MessageRecord | None:
        return self._msg_index.get((int(chat_id), int(message_id)))

    def documents(self, chat_id: int) -> list[MessageRecord]:
        """The bot's non-deleted document messages in the chat, oldest first (see .document, .caption)."""
        return [m for m in self.bot_messages(chat_id) if m.document is not None]

    # ----------------------------------------------------------------- callback queries
    def callback_answer(self, query_id: str) -> dict | None:
        q = self.queries.get(str(query_id))
        return q.answer if q else None

    async def wait_for_answer(self, query_id: str, timeout: float = HANG_SECONDS) -> dict:
        """The bot's answer to a press; then, if the test set ``after_answer`` (e.g. "wait until
        the bot has shown what the press changed"), that too."""
        await self.wait_until(
            lambda: self.callback_answer(query_id) is not None, timeout, f"answer to callback query {query_id}"
        )
        if self.after_answer is not None:
            await self.after_answer()
        return self.callback_answer(query_id)  # type: ignore[return-value]

    def answer_latency(self) -> list[float]:
        """Seconds (on the fake's clock) from each callback update being queued to its
        answerCallbackQuery, for every answered query in press order.  Per-query records,
        unanswered ones included, are in :attr:`queries`."""
        return [q.latency for q in self._answered()]

    def _answered(self) -> list[CallbackQuery]:
        return [q for q in self.queries.values() if q.answered_at is not None]

    # ----------------------------------------------------------------- command menus
    def commands(self, scope: dict | None = None, language_code: str = "") -> list[dict]:
        """The command list stored for exactly this scope and language (what getMyCommands answers)."""
        return self.commands_store.get((self._scope_key(scope), language_code or ""), [])

    def menu_commands(self, user: FakeUser | int, chat_id: int | None = None) -> list[dict]:
        """The commands ``user`` sees in the menu of ``chat_id`` (default: their private chat),
        chosen by Telegram's documented order: the narrowest scope first, each with the user's
        language before without it; the first list that is set wins."""
        u = self._user(user)
        chat_id = u.id if chat_id is None else int(chat_id)
        if chat_id in self.chats:
            admin = self.chats[chat_id].status(u.id) in ADMIN_STATUSES
            scopes = [("chat_member", chat_id, u.id)]
            scopes += [("chat_administrators", chat_id)] if admin else []
            scopes += [("chat", chat_id)]
            scopes += [("all_chat_administrators",)] if admin else []
            scopes += [("all_group_chats",), ("default",)]
        else:
            scopes = [("chat", chat_id), ("all_private_chats",), ("default",)]
        language = (u.language_code or "")[:2].lower()
        for scope in scopes:
            for code in dict.fromkeys((language, "")):
                found = self.commands_store.get((scope, code))
                if found:
                    return found
        return []

    # ----------------------------------------------------------------- synchronisation
    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float = HANG_SECONDS, what: str | None = None
    ) -> Any:
        """Poll ``predicate`` (sync or async) until truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            val = predicate()
            if asyncio.iscoroutine(val):
                val = await val
            if val:
                return val
            if time.monotonic() >= deadline:
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what or getattr(predicate, '__name__', 'predicate')}"
                )
            # Look again as soon as the bot's next call is answered (or after 10 ms at most).
            pulse = self._pulse
            if pulse is None:
                await asyncio.sleep(0.01)
                continue
            try:
                await asyncio.wait_for(pulse.wait(), 0.01)
            except TimeoutError:
                pass

    async def settle(self, quiet: float = 0.2, timeout: float = HANG_SECONDS) -> None:
        """Wait until every queued update was fetched by the bot, no request is in flight and
        no API call (other than an idle getUpdates) arrived for ``quiet`` seconds; and, when the
        test said how to see it (``bot_busy``), until the bot has no work of its own under way."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            undelivered = [u["update_id"] for u in self._pending if u["update_id"] > self._delivered_upto]
            quiet_here = not undelivered and self._inflight == 0 and now - self._last_activity >= quiet
            if quiet_here and (self.bot_busy is None or not self.bot_busy()):
                return
            if now >= deadline:
                raise TimeoutError(
                    f"fake API did not settle within {timeout}s: undelivered updates "
                    f"{undelivered}, in-flight requests {self._inflight}"
                )
            await asyncio.sleep(0.01)
