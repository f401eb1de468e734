"""Lines that fit a phone: how wide a line is on a phone, and parts packed into such lines."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from html import unescape

# A table line holds at most this many columns, an emoji counting as two (it is as wide as about
# two letters): about 40 letters fill a message bubble on a phone 360 points wide at Telegram's
# default text size, and a proportional font fits a few more narrow ones. Lines of events are
# sentences and may wrap; every other line of the table (the seats, the centre, whom the table
# waits for) is laid out to fit (docs/DECISIONS.md, "Lines that fit a phone").
LINE_WIDTH = 44
_TAG = re.compile(r"<[^>]+>")


def shown_text(html: str) -> str:
    """What a reader sees of an HTML text: tags dropped, entities as the characters they stand for."""
    return unescape(_TAG.sub("", html))


def phone_width(text: str) -> int:
    """Columns a phone gives an HTML line: tags dropped, entities as one character, an emoji
    (a wide character, or one followed by the emoji selector U+FE0F) as two."""
    shown = shown_text(text)
    width = 0
    for index, char in enumerate(shown):
        if char in "\ufe0f\u200d" or unicodedata.combining(char):
            continue
        emoji = unicodedata.east_asian_width(char) in "WF" or shown[index + 1 : index + 2] == "\ufe0f"
        width += 2 if emoji else 1
    return width


def pack(parts: Sequence[str], width: int = LINE_WIDTH, joiner: str = " · ") -> list[str]:
    """Parts joined on a line while the line fits `width`, the rest on the next lines."""
    lines: list[str] = []
    for part in parts:
        if lines and phone_width(lines[-1] + joiner + part) <= width:
            lines[-1] += joiner + part
        else:
            lines.append(part)
    return lines


def wrap(text: str, width: int = LINE_WIDTH, most: int = 2) -> list[str] | None:
    """A sentence broken between words into lines that fit `width`, or None when it needs more
    than `most` lines (HTML entities are fine; tags are not expected)."""
    lines = pack(text.split(" "), width, joiner=" ")
    return lines if len(lines) <= most and all(phone_width(line) <= width for line in lines) else None


def broken(lines: Sequence[str], width: int = LINE_WIDTH) -> list[str]:
    """Each line that is wider than `width` broken between words into lines that fit (a word
    wider than the line stays whole); tags are fine, as the lines are joined again."""
    fitted: list[str] = []
    for line in (part for text in lines for part in text.split("\n")):
        fitted.extend(pack(line.split(" "), width, joiner=" ") if phone_width(line) > width else [line])
    return fitted
