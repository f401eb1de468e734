"""The bot's profile: getMe and its command menus per scope and language."""

from __future__ import annotations

import json
import re
from typing import Any

from fakeapi.errors import bad


class ProfileMethods:
    async def _m_getme(self, p: dict) -> dict:
        return {**self.bot_user, "can_join_groups": self.can_join_groups,
                "can_read_all_group_messages": self.can_read_all_group_messages,
                "supports_inline_queries": self.supports_inline_queries,
                "can_connect_to_business": False, "has_main_web_app": False}

    # ----------------------------------------------------------------- commands
    async def _m_setmycommands(self, p: dict) -> bool:
        cmds = p.get("commands")
        if not isinstance(cmds, list):
            raise bad("can't parse commands JSON object")
        clean = []
        for c in cmds:
            if not isinstance(c, dict) or not re.fullmatch(r"[a-z0-9_]{1,32}", str(c.get("command", ""))):
                raise bad("BOT_COMMAND_INVALID")
            desc = str(c.get("description", ""))
            if not 1 <= len(desc) <= 256:
                raise bad("BOT_COMMAND_DESCRIPTION_INVALID")
            clean.append({"command": c["command"], "description": desc})
        key = (self._scope_key(p.get("scope")), p.get("language_code") or "")
        if clean:
            self.commands_store[key] = clean
        else:
            self.commands_store.pop(key, None)
        return True

    async def _m_getmycommands(self, p: dict) -> list:
        return self.commands(p.get("scope"), p.get("language_code") or "")

    async def _m_deletemycommands(self, p: dict) -> bool:
        self.commands_store.pop((self._scope_key(p.get("scope")), p.get("language_code") or ""), None)
        return True

    @staticmethod
    def _scope_key(scope: Any) -> str:
        if not scope:
            scope = {"type": "default"}
        return json.dumps(scope, sort_keys=True)
