"""Text measures and the entities Telegram's clients add to what users type."""

from __future__ import annotations

import re

BOT_COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,64})?")


def utf16_len(s: str) -> int:
    """Length of ``s`` in UTF-16 code units (Telegram's unit for offsets and limits)."""
    return len(s.encode("utf-16-le")) // 2


def command_entities(text: str) -> list[dict]:
    """bot_command entities as Telegram's clients produce them (UTF-16 offsets)."""
    return [
        {"type": "bot_command", "offset": utf16_len(text[: m.start()]), "length": utf16_len(m.group(0))}
        for m in BOT_COMMAND_RE.finditer(text)
    ]
