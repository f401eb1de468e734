"""Card codes as in docs/REPLAY.md: rank then suit (`10H`, `QS`), `X` for a joker.

Cards are plain upper-case strings everywhere in the engines, so states and events are JSON as
they are. This module parses and validates codes, builds the standard decks, and formats cards
with suit symbols for display.
"""

from __future__ import annotations

Card = str

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER: Card = "X"

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER_SYMBOL = "🃏"

# Rank index 2..14 (ace high); engines that rank differently keep their own tables.
RANK_VALUE = {rank: index + 2 for index, rank in enumerate(RANKS)}


class CardError(ValueError):
    """A string that is not a card code of the shared notation."""


def parse_card(text: object) -> Card:
    """Return the canonical code of a card written in any case; raise CardError otherwise."""
    if not isinstance(text, str):
        raise CardError(f"not a card code: {text!r}")
    code = text.strip().upper()
    if code == JOKER:
        return JOKER
    rank, suit = code[:-1], code[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"not a card code: {text!r}")
    return rank + suit


def is_card_code(text: object) -> bool:
    try:
        parse_card(text)
    except CardError:
        return False
    return True


def rank_of(card: Card) -> str:
    return card if card == JOKER else card[:-1]


def suit_of(card: Card) -> str | None:
    return None if card == JOKER else card[-1]


def format_card(card: Card) -> str:
    """The card as players read it: `10♥`, `Q♠`, `🃏`."""
    if card == JOKER:
        return JOKER_SYMBOL
    return rank_of(card) + SUIT_SYMBOLS[card[-1]]


card_label = format_card


def _pack(ranks: tuple[str, ...]) -> list[Card]:
    return [rank + suit for suit in SUITS for rank in ranks]


def deck_24() -> list[Card]:
    """9 to ace in four suits (Euchre)."""
    return _pack(("9", "10", "J", "Q", "K", "A"))


def deck_32() -> list[Card]:
    """7 to ace in four suits (Euchre's 32-card option)."""
    return _pack(("7", "8", "9", "10", "J", "Q", "K", "A"))


def deck_52() -> list[Card]:
    return _pack(RANKS)


def deck_54() -> list[Card]:
    """A full pack with two identical jokers (Kadi)."""
    return deck_52() + [JOKER, JOKER]


def deck_104() -> list[Card]:
    """Two full packs; identical cards appear twice (Three Thirteen for 3-4 players)."""
    return deck_52() + deck_52()
