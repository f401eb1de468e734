"""The bot's profile: getMe, its name and descriptions per language, and its command menus per scope.

Names and descriptions follow the Bot API: an empty value removes the text for that language, and
a language without its own text gets the default one.  The default name is the bot's first_name.
Commands are stored per (scope, language_code) exactly as set; getMyCommands answers exactly that
list, without falling back (see Inspection.menu_commands for what a user is shown).
"""

from __future__ import annotations

import re
from typing import Any

from fakeapi.errors import E_LANGUAGE_CODE, E_USER_NOT_FOUND, bad

# Bot API limits, in characters.
MAX_NAME, MAX_DESCRIPTION, MAX_SHORT_DESCRIPTION = 64, 512, 120
MAX_COMMANDS, MAX_COMMAND_DESCRIPTION = 100, 256
# BotCommandScope type -> the fields that identify one scope of that type.
SCOPE_FIELDS = {
    "default": (),
    "all_private_chats": (),
    "all_group_chats": (),
    "all_chat_administrators": (),
    "chat": ("chat_id",),
    "chat_administrators": ("chat_id",),
    "chat_member": ("chat_id", "user_id"),
}


class ProfileMethods:
    async def _m_getme(self, p: dict) -> dict:
        return {
            **self.bot_user,
            "can_join_groups": self.can_join_groups,
            "can_read_all_group_messages": self.can_read_all_group_messages,
            "supports_inline_queries": self.supports_inline_queries,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    # ----------------------------------------------------------------- the menu button
    async def _m_setchatmenubutton(self, p: dict) -> bool:
        button = p.get("menu_button") or {"type": "default"}
        if not isinstance(button, dict) or button.get("type") not in ("default", "commands", "web_app"):
            raise bad("can't parse menu button")
        chat = p.get("chat_id")
        self.menu_buttons[str(chat) if chat is not None else ""] = button
        return True

    async def _m_getchatmenubutton(self, p: dict) -> dict:
        chat = p.get("chat_id")
        return (
            self.menu_buttons.get(str(chat) if chat is not None else "")
            or self.menu_buttons.get("")
            or {"type": "default"}
        )

    # ----------------------------------------------------------------- name and descriptions
    async def _m_setmyname(self, p: dict) -> bool:
        language = self._language_code(p)
        name = self._profile_text(p, "name", MAX_NAME)
        if not language:
            if not name:  # the bot must keep a name (tdlib: "must be non-empty if language code is empty")
                raise bad("name must be non-empty")
            self.bot_first_name = name
        elif name:
            self.bot_names[language] = name
        else:
            self.bot_names.pop(language, None)
        return True

    async def _m_getmyname(self, p: dict) -> dict:
        return {"name": self.bot_names.get(self._language_code(p)) or self.bot_first_name}

    async def _m_setmydescription(self, p: dict) -> bool:
        self._set_localized(self.bot_descriptions, p, "description", MAX_DESCRIPTION)
        return True

    async def _m_getmydescription(self, p: dict) -> dict:
        return {"description": self._localized(self.bot_descriptions, p)}

    async def _m_setmyshortdescription(self, p: dict) -> bool:
        self._set_localized(self.bot_short_descriptions, p, "short_description", MAX_SHORT_DESCRIPTION)
        return True

    async def _m_getmyshortdescription(self, p: dict) -> dict:
        return {"short_description": self._localized(self.bot_short_descriptions, p)}

    def _set_localized(self, store: dict[str, str], p: dict, field: str, limit: int) -> None:
        language = self._language_code(p)
        text = self._profile_text(p, field, limit)
        if text:
            store[language] = text
        else:
            store.pop(language, None)

    def _localized(self, store: dict[str, str], p: dict) -> str:
        return store.get(self._language_code(p)) or store.get("", "")

    @staticmethod
    def _profile_text(p: dict, field: str, limit: int) -> str:
        text = str(p.get(field) or "")
        if len(text) > limit:
            raise bad(f"{field} is too long: {len(text)} characters, at most {limit}")
        return text

    @staticmethod
    def _language_code(p: dict) -> str:
        code = p.get("language_code") or ""
        if code and not re.fullmatch(r"[a-z]{2}", str(code)):
            raise bad(E_LANGUAGE_CODE)
        return code

    # ----------------------------------------------------------------- commands
    async def _m_setmycommands(self, p: dict) -> bool:
        cmds = p.get("commands")
        if not isinstance(cmds, list):
            raise bad("can't parse commands JSON object")
        if len(cmds) > MAX_COMMANDS:
            raise bad("too many commands")
        clean = []
        for c in cmds:
            if not isinstance(c, dict) or not re.fullmatch(r"[a-z0-9_]{1,32}", str(c.get("command", ""))):
                raise bad("BOT_COMMAND_INVALID")
            desc = str(c.get("description", ""))
            if not 1 <= len(desc) <= MAX_COMMAND_DESCRIPTION:
                raise bad("BOT_COMMAND_DESCRIPTION_INVALID")
            clean.append({"command": c["command"], "description": desc})
        key = (self._scope_key(p.get("scope")), self._language_code(p))
        if clean:
            self.commands_store[key] = clean
        else:  # an empty list is the same as deleteMyCommands
            self.commands_store.pop(key, None)
        return True

    async def _m_getmycommands(self, p: dict) -> list:
        return self.commands_store.get((self._scope_key(p.get("scope")), self._language_code(p)), [])

    async def _m_deletemycommands(self, p: dict) -> bool:
        self.commands_store.pop((self._scope_key(p.get("scope")), self._language_code(p)), None)
        return True

    def _scope_key(self, scope: Any) -> tuple:
        """("chat", -100123) for a BotCommandScopeChat, ("default",) when no scope is given, ..."""
        if scope is None:
            return ("default",)
        if not isinstance(scope, dict) or scope.get("type") not in SCOPE_FIELDS:
            raise bad("can't parse BotCommandScope: unsupported scope type")
        key: list[Any] = [scope["type"]]
        for name in SCOPE_FIELDS[scope["type"]]:
            if name == "chat_id":
                key.append(self._resolve_chat(scope.get("chat_id")))
            else:
                uid = int(scope.get("user_id") or 0)
                if uid not in self.users:
                    raise bad(E_USER_NOT_FOUND)
                key.append(uid)
        return tuple(key)
