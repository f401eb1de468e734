"""The shared game protocol, cards, options and serialization used by every game engine."""

from engine.core.cards import (
    JOKER,
    RANKS,
    SUITS,
    Card,
    card_label,
    deck_24,
    deck_32,
    deck_52,
    deck_54,
    deck_104,
    format_card,
    parse_card,
)
from engine.core.protocol import (
    CLOCK,
    Applied,
    Event,
    Game,
    MalformedAction,
    Refused,
    Result,
)
from engine.core.rng import pick, rng_for, shuffled

__all__ = [
    "CLOCK",
    "JOKER",
    "RANKS",
    "SUITS",
    "Applied",
    "Card",
    "Event",
    "Game",
    "MalformedAction",
    "Refused",
    "Result",
    "card_label",
    "deck_104",
    "deck_24",
    "deck_32",
    "deck_52",
    "deck_54",
    "format_card",
    "parse_card",
    "pick",
    "rng_for",
    "shuffled",
]
