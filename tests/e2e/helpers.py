"""What a player sees, read back from the fake Bot API, and the engine truth to compare it with."""

from __future__ import annotations

import re

CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♠♥♦♣])")
SYMBOL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(text: str | None) -> list[str]:
    """Card codes shown in a message text (jokers are identical, so they prove nothing)."""
    return [rank + SYMBOL_SUIT[suit] for rank, suit in CARD.findall(text or "")]


def hand_line_cards(text: str | None) -> list[str]:
    for line in (text or "").splitlines():
        if line.startswith(("Your hand:", "Karata zako:")):
            return cards_in(line)
    return []


async def table_state(application, table_id):
    service = application.bot_data["karata"].service
    return await service.load(table_id)
