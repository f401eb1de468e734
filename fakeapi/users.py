"""Simulated users: what a test makes people do in Telegram (start the bot, write, press buttons, vote).

A mixin of FakeBotAPI.  Each action records what the user did and queues the update the bot would
get, with Telegram's rules applied: privacy mode in groups, no private chat before /start, only
visible buttons can be pressed.
"""

from __future__ import annotations

import re
import time
from typing import Iterable

from fakeapi.records import CallbackQuery, FakeUser, MessageRecord
from fakeapi.text import command_entities
from fakeapi.world import ADMIN_STATUSES, GONE_STATUSES


class SimulatedUsers:
    async def user_starts_bot(self, user: FakeUser | int, payload: str | None = None) -> dict:
        """The user presses START in the private chat (optionally via
        ``https://t.me/<bot>?start=PAYLOAD``). Queues "/start [PAYLOAD]"."""
        u = self._user(user)
        if u.blocked:
            self._queue("my_chat_member", self._my_chat_member(u, "kicked", "member"))
        u.started = True
        u.blocked = False
        text = "/start" if not payload else f"/start {payload}"
        rec = self._user_message(u, u.id, text, None, None, [{"type": "bot_command", "offset": 0, "length": 6}])
        msg = self.message_dict(rec)
        self._queue("message", msg)
        return msg

    async def open_link(self, user: FakeUser | int, url: str) -> dict:
        """Follow a ``https://t.me/<bot>?start=PAYLOAD`` deep link."""
        m = re.match(r"^(?:https?://)?t\.me/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]*)$", url)
        if not m or m.group(1).lower() != self.bot_username.lower():
            raise ValueError(f"not a start link for @{self.bot_username}: {url}")
        return await self.user_starts_bot(user, m.group(2) or None)

    async def send_text(
        self,
        user: FakeUser | int,
        chat_id: int,
        text: str,
        reply_to_message_id: int | None = None,
        thread_id: int | None = None,
    ) -> dict:
        """The user sends ``text`` to ``chat_id`` (a group they are in, or their private chat
        with the bot). Returns the Message dict; it is queued as an update if the bot would
        receive it (privacy mode applies in groups)."""
        u = self._user(user)
        chat_id = int(chat_id)
        if chat_id in self.chats:
            if not self._is_member(u.id, chat_id):
                raise ValueError(f"user {u.id} is not a member of chat {chat_id}")
            if self.chats[chat_id].migrated_to is not None or self.chats[chat_id].deleted:
                raise ValueError(f"chat {chat_id} was upgraded or deleted: nobody writes there")
        elif chat_id == u.id:
            if not u.started or u.blocked:
                if re.match(r"^/start(\s|$)", text):
                    return await self.user_starts_bot(u, text[6:].strip() or None)
                raise ValueError(f"user {u.id} must start the bot first (user_starts_bot)")
        else:
            raise ValueError(f"user {u.id} cannot write to chat {chat_id}")
        rec = self._user_message(u, chat_id, text, reply_to_message_id, thread_id)
        msg = self.message_dict(rec)
        if self._bot_receives(rec):
            self._message_updates[(chat_id, rec.message_id)] = self._queue("message", msg)
        return msg

    async def press(self, user: FakeUser | int, chat_id: int, message_id: int, callback_data: str) -> str:
        """Press the inline button carrying ``callback_data``; returns the callback query id.
        Raises ValueError if the message has no such button."""
        u = self._user(user)
        rec = self._pressable(u, chat_id, message_id)
        if callback_data not in [d for row in rec.buttons for (_, d) in row]:
            raise ValueError(
                f"message {message_id} in chat {chat_id} has no button with data "
                f"{callback_data!r}; buttons: {rec.buttons}"
            )
        return self._new_query(u, rec, callback_data, forged=False)

    async def press_text(self, user: FakeUser | int, chat_id: int, message_id: int, button_text: str) -> str:
        """Press the inline button whose label is ``button_text``."""
        u = self._user(user)
        rec = self._pressable(u, chat_id, message_id)
        for row in rec.buttons:
            for text, data in row:
                if text == button_text:
                    return await self.press(u, chat_id, message_id, data)
        raise ValueError(f"no button labelled {button_text!r}; buttons: {rec.buttons}")

    async def press_forged(self, user: FakeUser | int, chat_id: int, message_id: int, callback_data: str) -> str:
        """Send a callback query with arbitrary data for an existing message (a hacked client)."""
        u = self._user(user)
        rec = self._msg_index.get((int(chat_id), int(message_id)))
        if rec is None:
            raise ValueError(f"message {message_id} not found in chat {chat_id}")
        return self._new_query(u, rec, callback_data, forged=True)

    async def answer_poll(self, user: FakeUser | int, poll_id: str, option_ids: Iterable[int]) -> None:
        """The user votes (an empty list retracts). Queues poll_answer and poll updates."""
        u = self._user(user)
        p = self.polls[poll_id]
        if p["is_closed"]:
            raise ValueError("poll is closed")
        if p["is_anonymous"]:
            raise ValueError("anonymous polls do not produce poll_answer updates")
        if not self._is_member(u.id, p["chat_id"]):
            raise ValueError(f"user {u.id} cannot see the poll")
        ids = [int(i) for i in option_ids]
        if any(i < 0 or i >= len(p["options"]) for i in ids):
            raise ValueError(f"invalid option ids {ids}")
        if len(ids) > 1 and not p["allows_multiple_answers"]:
            raise ValueError("poll does not allow multiple answers")
        if ids:
            p["votes"][u.id] = ids
        else:
            p["votes"].pop(u.id, None)
        self._queue(
            "poll_answer",
            {"poll_id": poll_id, "user": u.to_api(), "option_ids": ids, "option_persistent_ids": [str(i) for i in ids]},
        )
        self._queue("poll", self._poll_dict(poll_id))

    # ----------------------------------------------------------------- helpers
    def _user_message(
        self,
        u: FakeUser,
        chat_id: int,
        text: str,
        reply_to_message_id: int | None,
        thread_id: int | None,
        extra_entities: list | None = None,
    ) -> MessageRecord:
        if reply_to_message_id is not None and self._get_msg(chat_id, reply_to_message_id) is None:
            raise ValueError(f"message {reply_to_message_id} not found in chat {chat_id}")
        chat = self.chats.get(chat_id)
        if thread_id is not None and chat is not None and chat.is_forum and thread_id not in chat.topics:
            raise ValueError(f"topic {thread_id} not found in chat {chat_id}")
        ents = command_entities(text) if extra_entities is None else extra_entities
        rec = MessageRecord(
            chat_id=chat_id,
            message_id=self._new_message_id(chat_id),
            from_bot=False,
            sender_id=u.id,
            date=int(time.time()),
            text=text,
            parse_mode=None,
            plain=text,
            entities=ents,
            reply_markup=None,
            thread_id=thread_id,
            reply_to_message_id=reply_to_message_id,
        )
        return self._store(rec)

    def _bot_receives(self, rec: MessageRecord) -> bool:
        """Privacy mode: in groups the bot only gets commands (for it) and replies to its own
        messages, unless it is an admin or can_read_all_group_messages."""
        if rec.chat_id not in self.chats:
            return True
        status = self.bot_status.get(rec.chat_id)
        if status in GONE_STATUSES:
            return False
        if self.can_read_all_group_messages or status in ADMIN_STATUSES:
            return True
        for e in rec.entities:
            if e["type"] == "bot_command":
                cmd = rec.text[e["offset"] : e["offset"] + e["length"]]
                if "@" not in cmd or cmd.split("@", 1)[1].lower() == self.bot_username.lower():
                    return True
        if rec.reply_to_message_id is not None:
            target = self._msg_index.get((rec.chat_id, rec.reply_to_message_id))
            if target is not None and target.from_bot:
                return True
        return False

    def _pressable(self, u: FakeUser, chat_id: int, message_id: int) -> MessageRecord:
        chat_id = int(chat_id)
        if not self._is_member(u.id, chat_id):
            raise ValueError(f"user {u.id} cannot see chat {chat_id}")
        rec = self._get_msg(chat_id, int(message_id))
        if rec is None:
            raise ValueError(f"message {message_id} not found (or deleted) in chat {chat_id}")
        return rec

    def _new_query(self, u: FakeUser, rec: MessageRecord, data: str, forged: bool) -> str:
        qid = str(self._next_query)
        self._next_query += 1
        self.queries[qid] = CallbackQuery(
            id=qid,
            user_id=u.id,
            chat_id=rec.chat_id,
            message_id=rec.message_id,
            data=data,
            forged=forged,
            created_at=self.clock(),
        )
        payload = {
            "id": qid,
            "from": u.to_api(),
            "message": self.message_dict(rec),
            "chat_instance": str(abs(hash((rec.chat_id, self.bot_id))) % 10**18),
            "data": data,
        }
        self._query_updates[qid] = self._queue("callback_query", payload)
        return qid

    def redeliver(self, query_id: str) -> None:
        """Telegram sends a press again, same update and query id, when the bot did not confirm
        the update before it stopped (it died after handling it)."""
        self._pending.append(dict(self._query_updates[query_id]))
        self._touch()
        self._notify()

    def redeliver_message(self, chat_id: int, message_id: int) -> None:
        """Telegram sends a message's update again, same update id (a webhook retried, or the
        bot stopped before confirming it)."""
        self._pending.append(dict(self._message_updates[(int(chat_id), int(message_id))]))
        self._touch()
        self._notify()
