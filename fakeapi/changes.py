"""The chat changing under the bot: a group upgraded to a supergroup, the bot removed, restricted or
added back, a group deleted.  A mixin of FakeBotAPI (test-side helpers).

Each change does to the fake what Telegram does: the calls the bot makes afterwards fail the way
Telegram's do (400 with ``parameters.migrate_to_chat_id``, 403 "kicked", 403 "deleted", 400 "not
enough rights"), and the updates Telegram would send are queued (the ``migrate_to_chat_id`` /
``migrate_from_chat_id`` service messages, ``my_chat_member``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Iterable

from fakeapi.records import FakeChat, FakeUser, MessageRecord

# Every right a restricted member has or lacks (Telegram lists them all).
RESTRICTED_RIGHTS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
    "can_edit_tag",
)


class ChatChanges:
    def migrate_group(
        self, chat_id: int, new_chat_id: int, by: FakeUser | int | None = None, notify: Iterable[str] = ("old", "new")
    ) -> FakeChat:
        """The group is upgraded to a supergroup with id ``new_chat_id`` (same title and members,
        the bot's status kept, message ids start again).  Every later call naming the old id fails
        with 400 and ``migrate_to_chat_id``, as Telegram's does.  ``notify`` says which service
        messages the bot is sent: "old" (``migrate_to_chat_id`` in the old group), "new"
        (``migrate_from_chat_id`` in the supergroup); none, to test the error path alone."""
        old = self.chats[int(chat_id)]
        new = replace(
            old,
            id=int(new_chat_id),
            type="supergroup",
            members=dict(old.members),
            topics=dict(old.topics),
            migrated_to=None,
            deleted=False,
        )
        self.chats[new.id] = new
        self.bot_status[new.id] = self.bot_status.get(old.id, "member")
        sender = self._user(by) if by is not None else self._creator_of(old)
        notify = set(notify)
        old.type = "group"  # it was a basic group (supergroups are not upgraded)
        if "old" in notify:
            self._service_message(old.id, sender, {"migrate_to_chat_id": new.id})
        old.migrated_to = new.id
        if "new" in notify:
            self._service_message(new.id, sender, {"migrate_from_chat_id": old.id})
        return new

    def remove_bot(
        self, chat_id: int, by: FakeUser | int | None = None, status: str = "kicked", notify: bool = True
    ) -> None:
        """An admin removes the bot from the group ("kicked"), or it is made to leave ("left");
        the bot is told with ``my_chat_member`` unless ``notify`` is False."""
        self._bot_member_change(int(chat_id), status, by, None, notify)

    def restrict_bot(
        self, chat_id: int, by: FakeUser | int | None = None, can_send_messages: bool = False, notify: bool = True
    ) -> None:
        """An admin restricts the bot: without the right to send messages, its sends fail with 400."""
        rights: dict[str, Any] = {name: True for name in RESTRICTED_RIGHTS}
        rights.update(can_send_messages=can_send_messages, can_send_polls=can_send_messages, is_member=True)
        self.bot_rights[int(chat_id)] = rights
        self._bot_member_change(int(chat_id), "restricted", by, rights, notify)

    def add_bot_back(self, chat_id: int, by: FakeUser | int | None = None, notify: bool = True) -> None:
        """The bot is added to the group again (or its restriction lifted)."""
        self.bot_rights.pop(int(chat_id), None)
        self._bot_member_change(int(chat_id), "member", by, None, notify)

    def delete_group(self, chat_id: int) -> None:
        """The group is deleted: Telegram sends nothing, and every call to it fails with 403."""
        self.chats[int(chat_id)].deleted = True

    def calls_to(self, chat_id: int, since: int = 0) -> list[tuple[str, dict]]:
        """The calls (method, params) made naming ``chat_id``, from the ``since``-th call on."""
        return [(method, params) for method, params in self.calls[since:] if str(params.get("chat_id")) == str(chat_id)]

    # ----------------------------------------------------------------- helpers
    def _bot_member_change(
        self, chat_id: int, status: str, by: FakeUser | int | None, rights: dict | None, notify: bool
    ) -> None:
        chat = self.chats[chat_id]
        old = self.bot_status.get(chat_id, "member")
        self.bot_status[chat_id] = status
        if notify:
            sender = self._user(by) if by is not None else self._creator_of(chat)
            self._queue("my_chat_member", self._my_chat_member(sender, old, status, chat.to_api(), rights))

    def _creator_of(self, chat: FakeChat) -> FakeUser:
        for uid, status in chat.members.items():
            if status == "creator" and uid in self.users:
                return self.users[uid]
        return next(self.users[uid] for uid in chat.members if uid in self.users)

    def _service_message(self, chat_id: int, sender: FakeUser, service: dict) -> None:
        rec = MessageRecord(
            chat_id=chat_id,
            message_id=self._new_message_id(chat_id),
            from_bot=False,
            sender_id=sender.id,
            date=int(time.time()),
            text=None,
            parse_mode=None,
            plain=None,
            entities=[],
            reply_markup=None,
            service=service,
        )
        self._store(rec)
        # Bots get service messages whatever their privacy mode.
        self._queue("message", self.message_dict(rec))
