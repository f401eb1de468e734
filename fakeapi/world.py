"""The simulated Telegram world behind the fake: users, groups, messages, and the test-side setup of it.

A mixin of FakeBotAPI (see fakeapi.server, which owns the state): lookups and permission checks the
Bot API methods share, the Bot API objects built from records, and the helpers a test uses to
populate the world before the bot runs.
"""

from __future__ import annotations

import time
from typing import Any, Iterable

from fakeapi.errors import (
    E_BLOCKED,
    E_CANT_INITIATE,
    E_CHAT_NOT_FOUND,
    E_GROUP_DELETED,
    E_KICKED,
    E_MIGRATED,
    E_NO_RIGHTS,
    E_NOT_MEMBER,
    TelegramAPIError,
    bad,
    forbidden,
)
from fakeapi.records import FakeChat, FakeUser, MessageRecord

ADMIN_STATUSES = ("creator", "administrator")
GONE_STATUSES = ("left", "kicked")


class World:
    # ----------------------------------------------------------------- test-side setup
    def add_user(
        self,
        user_id: int,
        first_name: str,
        language_code: str | None = "en",
        username: str | None = None,
        last_name: str | None = None,
    ) -> FakeUser:
        u = FakeUser(
            id=int(user_id), first_name=first_name, language_code=language_code, username=username, last_name=last_name
        )
        self.users[u.id] = u
        return u

    def add_group(
        self,
        chat_id: int,
        title: str,
        members: dict | None = None,
        forum: bool = False,
        username: str | None = None,
        bot_status: str = "member",
        topics: Iterable[str] = (),
    ) -> FakeChat:
        """A supergroup. ``members`` maps user (id or FakeUser) to "creator", "administrator",
        "member", "left" or "kicked". The bot's own status is ``bot_status`` (or give the bot
        id in ``members``)."""
        chat = FakeChat(id=int(chat_id), title=title, is_forum=forum, username=username)
        self.chats[chat.id] = chat
        self.bot_status[chat.id] = bot_status
        for user, status in (members or {}).items():
            self.set_member(chat.id, user, status)
        if forum:
            self._next_msg_id[chat.id] = 2  # thread 1 is the General topic
        for name in topics:
            self.add_topic(chat.id, name)
        return chat

    def set_member(self, chat_id: int, user: FakeUser | int, status: str) -> None:
        """Set a user's (or the bot's) status in a group: joining, leaving, promotion, ban."""
        uid = self._uid(user)
        if uid == self.bot_id:
            self.bot_status[chat_id] = status
        else:
            self.chats[chat_id].members[uid] = status

    def add_topic(self, chat_id: int, name: str) -> int:
        """Create a forum topic; returns its message_thread_id."""
        chat = self.chats[chat_id]
        mid = self._new_message_id(chat_id)
        if mid == 1:  # thread 1 is the General topic, as on Telegram
            mid = self._new_message_id(chat_id)
        self._store(
            MessageRecord(
                chat_id=chat_id,
                message_id=mid,
                from_bot=True,
                sender_id=self.bot_id,
                date=int(time.time()),
                text=None,
                parse_mode=None,
                plain=None,
                entities=[],
                reply_markup=None,
                thread_id=mid,
                service={"forum_topic_created": {"name": name, "icon_color": 7322096}},
            )
        )
        chat.topics[mid] = name
        return mid

    def block(self, user: FakeUser | int) -> None:
        """The user blocks the bot: sends to them fail, and the bot gets a my_chat_member update."""
        u = self._user(user)
        was_member = u.started and not u.blocked
        u.blocked = True
        if was_member:
            self._queue("my_chat_member", self._my_chat_member(u, "member", "kicked"))

    def _my_chat_member(
        self, u: FakeUser, old: str, new: str, chat: dict | None = None, rights: dict | None = None
    ) -> dict:
        """The bot's own membership changed in ``chat`` (default: the user's private chat);
        ``rights`` completes a "restricted" or "administrator" member."""

        def cm(status: str, extra: dict | None) -> dict:
            d: dict[str, Any] = {"status": status, "user": self.bot_user}
            if status in ("kicked", "restricted"):
                d["until_date"] = 0
            d.update(extra or {})
            return d

        return {
            "chat": chat or u.private_chat(),
            "from": u.to_api(),
            "date": int(time.time()),
            "old_chat_member": cm(old, None),
            "new_chat_member": cm(new, rights),
        }

    # ----------------------------------------------------------------- lookups
    @property
    def bot_user(self) -> dict:
        return {"id": self.bot_id, "is_bot": True, "first_name": self.bot_first_name, "username": self.bot_username}

    @staticmethod
    def _uid(user: FakeUser | int) -> int:
        return user.id if isinstance(user, FakeUser) else int(user)

    def _user(self, user: FakeUser | int) -> FakeUser:
        uid = self._uid(user)
        if uid not in self.users:
            raise KeyError(f"unknown user {uid}; call add_user first")
        return self.users[uid]

    def _is_member(self, uid: int, chat_id: int) -> bool:
        if chat_id in self.chats:
            return self.chats[chat_id].status(uid) not in GONE_STATUSES
        return chat_id == uid

    def _resolve_chat(self, raw: Any) -> int:
        """The id of an existing chat named by a chat_id parameter (an id or "@username")."""
        if raw is None or raw == "":
            raise bad("chat_id is empty")
        if isinstance(raw, str):
            if raw.startswith("@"):
                for c in self.chats.values():
                    if c.username and c.username.lower() == raw[1:].lower():
                        return c.id
                raise bad(E_CHAT_NOT_FOUND)
            try:
                raw = int(raw)
            except ValueError:
                raise bad(E_CHAT_NOT_FOUND) from None
        cid = int(raw)
        chat = self.chats.get(cid)
        if chat is not None and chat.migrated_to is not None:
            raise TelegramAPIError(400, E_MIGRATED, {"migrate_to_chat_id": chat.migrated_to})
        if chat is not None and chat.deleted:
            raise forbidden(E_GROUP_DELETED)
        if cid in self.chats or cid in self.users:
            return cid
        raise bad(E_CHAT_NOT_FOUND)

    def _check_in_group(self, chat_id: int) -> None:
        """A bot that left or was removed can do nothing in the group, not even delete."""
        if chat_id in self.chats and self.bot_status.get(chat_id) in GONE_STATUSES:
            self._check_can_write(chat_id)

    def _check_can_write(self, chat_id: int) -> None:
        if chat_id in self.chats:
            st = self.bot_status.get(chat_id, "member")
            if st == "kicked":
                raise forbidden(E_KICKED)
            if st == "left":
                raise forbidden(E_NOT_MEMBER)
            if st == "restricted" and not self.bot_rights.get(chat_id, {}).get("can_send_messages", True):
                raise bad(E_NO_RIGHTS)
            return
        u = self.users[chat_id]
        if u.blocked:
            raise forbidden(E_BLOCKED)
        if not u.started:
            raise forbidden(E_CANT_INITIATE)

    # ----------------------------------------------------------------- the message store
    def _queue(self, kind: str, payload: dict) -> dict:
        upd = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self._pending.append(upd)
        self._touch()
        self._notify()
        return upd

    def _new_message_id(self, chat_id: int) -> int:
        mid = self._next_msg_id.get(chat_id, 1)
        self._next_msg_id[chat_id] = mid + 1
        return mid

    def _store(self, rec: MessageRecord) -> MessageRecord:
        rec.snapshot(self.clock())
        self._messages.setdefault(rec.chat_id, []).append(rec)
        self._msg_index[(rec.chat_id, rec.message_id)] = rec
        return rec

    def _get_msg(self, chat_id: int, message_id: int) -> MessageRecord | None:
        rec = self._msg_index.get((chat_id, message_id))
        if rec is None or rec.deleted:
            return None
        return rec

    # ----------------------------------------------------------------- Bot API objects
    def _chat_dict(self, chat_id: int) -> dict:
        if chat_id in self.chats:
            return self.chats[chat_id].to_api()
        return self.users[chat_id].private_chat()

    def message_dict(self, rec: MessageRecord, nested: bool = True) -> dict:
        """The Bot API ``Message`` object for a record (current version)."""
        d: dict[str, Any] = {"message_id": rec.message_id, "date": rec.date, "chat": self._chat_dict(rec.chat_id)}
        d["from"] = self.bot_user if rec.from_bot else self.users[rec.sender_id].to_api()
        if rec.thread_id is not None:
            d["message_thread_id"] = rec.thread_id
            chat = self.chats.get(rec.chat_id)
            if chat is not None and chat.is_forum:
                d["is_topic_message"] = True
        if rec.document is not None:
            d["document"] = rec.document.to_api()
            if rec.plain:
                d["caption"] = rec.plain
                if rec.entities:
                    d["caption_entities"] = rec.entities
        elif rec.text is not None:
            d["text"] = rec.plain
            if rec.entities:
                d["entities"] = rec.entities
        if rec.poll_id is not None:
            d["poll"] = self._poll_dict(rec.poll_id)
        if rec.service:
            d.update(rec.service)
        if rec.reply_markup and "inline_keyboard" in rec.reply_markup:
            d["reply_markup"] = rec.reply_markup
        if rec.edit_date is not None:
            d["edit_date"] = rec.edit_date
        if nested and rec.reply_to_message_id is not None:
            target = self._get_msg(rec.chat_id, rec.reply_to_message_id)
            if target is not None:
                d["reply_to_message"] = self.message_dict(target, nested=False)
        return d
