"""Bot API methods about chats: getChatMember answered from the fake's membership, sendChatAction."""

from __future__ import annotations

from typing import Any

from fakeapi.errors import E_MEMBER_NOT_FOUND, E_USER_NOT_FOUND, bad

# The rights Telegram lists for an administrator (the fake's admins have the usual ones).
ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": True,
}


class ChatMethods:
    async def _m_getchatmember(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        uid = int(p.get("user_id") or 0)
        if uid == self.bot_id:
            user = self.bot_user
            status = self.bot_status.get(chat_id, "member") if chat_id in self.chats else "member"
        elif uid not in self.users:
            raise bad(E_USER_NOT_FOUND)
        elif chat_id in self.chats:
            user, status = self.users[uid].to_api(), self.chats[chat_id].status(uid)
        elif uid == chat_id:
            user, status = self.users[uid].to_api(), "member"
        else:  # a private chat has two members: the user and the bot
            raise bad(E_MEMBER_NOT_FOUND)
        d: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            d["is_anonymous"] = False
        elif status == "administrator":
            d.update(ADMIN_RIGHTS)
        elif status == "kicked":
            d["until_date"] = 0
        return d

    async def _m_sendchataction(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        self._check_can_write(chat_id)
        return True
