"""Small pieces every message uses: a game's title, a clock, rows of buttons."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TypeVar

from handlers.i18n import Translator
from handlers.presentation.games import renderer_for

BUTTONS_PER_ROW = 4
# The icon before a table's title: not 🃏, the joker ("Top card: 🃏"), nor 🎴, a face-down card.
TITLE_ICON = "🎲"

T = TypeVar("T")


def game_title(game: str, _: Translator) -> str:
    return _(renderer_for(game).title)


def title_heading(game: str, _: Translator) -> str:
    """«<b>🎲 Kadi</b>»: the first words of a table's messages."""
    return f"<b>{TITLE_ICON} {escape(game_title(game, _))}</b>"


def clock_text(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"


def rows(buttons: Sequence[T], width: int = BUTTONS_PER_ROW) -> list[list[T]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]
