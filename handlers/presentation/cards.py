"""Cards and suits as players read them: 10♥️, Q♠, 🃏, and the Swahili suit names.

♥ and ♦ are sent with the emoji presentation selector (U+FE0F), so that phones draw them red;
without it many phones draw them as black text. A face-down card is 🎴: the card back 🂠 is a
box on many Android phones.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.cards import JOKER, JOKER_SYMBOL, RANK_VALUE
from handlers.i18n import N_, Translator

# Red suits carry U+FE0F (emoji presentation); black ones stay text symbols, which every font has.
SUIT_SYMBOLS = {"S": "♠", "H": "♥\ufe0f", "D": "♦\ufe0f", "C": "♣"}
FACE_DOWN = "🎴"
IN_HAND = "🤚"  # a count of cards in a hand on a seat's line, as 🎴 counts face-down ones
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}  # alternate colours: ♠ ♥ ♣ ♦


def card(code: str) -> str:
    """`10♥️`, `Q♠`, `🃏`."""
    if code == JOKER:
        return JOKER_SYMBOL
    return code[:-1] + SUIT_SYMBOLS[code[-1]]


def cards(codes: Iterable[str]) -> str:
    return " ".join(card(code) for code in codes)


def suit_label(suit: str, _: Translator) -> str:
    """A suit on a button: symbol first, then the name in the reader's language."""
    return f"{SUIT_SYMBOLS[suit]} {_(SUIT_NAMES[suit])}"


def by_suit_then_rank(code: str) -> tuple[int, int]:
    if code == JOKER:
        return (9, 0)
    return (SUIT_ORDER[code[-1]], RANK_VALUE[code[:-1]])


def by_rank(code: str) -> tuple[int, int]:
    if code == JOKER:
        return (99, 0)
    return (RANK_VALUE[code[:-1]], SUIT_ORDER[code[-1]])


def sort_hand(codes: Iterable[str], key=by_suit_then_rank) -> list[str]:
    return sorted(codes, key=key)
