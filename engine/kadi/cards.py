"""Kadi's card tables: the 54-card deck, each card's rank and suit, which cards are power cards."""

from __future__ import annotations

from engine.core.cards import JOKER, deck_54, rank_of, suit_of

DECK: tuple[str, ...] = tuple(deck_54())
# Position in the canonical deck: the order in which multi-card plays list their middle cards.
DECK_INDEX: dict[str, int] = {card: index for index, card in enumerate(dict.fromkeys(DECK))}
RANK: dict[str, str] = {card: rank_of(card) for card in DECK}
SUIT: dict[str, str | None] = {card: suit_of(card) for card in DECK}

# 2 (draw two), Joker (draw five), 7 (skip), 8 (reverse), J (free card with a command): K6.5.
POWER_RANKS = frozenset({"2", "7", "8", "J", JOKER})
PENALTY_PER_CARD = {"2": 2, JOKER: 5}
PENALTY_KIND = {"2": "two", JOKER: "joker"}


def is_power(card: str) -> bool:
    return RANK[card] in POWER_RANKS


def _cards(predicate) -> frozenset[str]:
    return frozenset(card for card in DECK if predicate(card))


# Which cards may open a play, by situation (section 5): precomputed so legality is a set lookup.
ALL_CARDS = frozenset(DECK)
OPENERS_ON: dict[str, frozenset[str]] = {
    top: _cards(lambda c, top=top: SUIT[c] == SUIT[top] or RANK[c] in (RANK[top], "J", JOKER))
    for top in DECK
    if top != JOKER
}
OPENERS_FOR_SUIT: dict[str, frozenset[str]] = {
    suit: _cards(lambda c, suit=suit: SUIT[c] == suit or RANK[c] == "J") for suit in "SHDC"
}
# The other cards of each card's rank (a joker's is the other joker): a card that shares no
# rank with the rest of the hand is a play on its own, found with one `isdisjoint`.
MATES: dict[str, frozenset[str]] = {
    card: _cards(lambda c, card=card: RANK[c] == RANK[card] and c != card) for card in DECK
}
MATES[JOKER] = frozenset({JOKER})
POWER_CARDS = _cards(lambda c: RANK[c] in POWER_RANKS)
STACK_ANSWERS: dict[str, frozenset[str]] = {
    "two": _cards(lambda c: RANK[c] == "2"),
    "joker": frozenset({JOKER}),
    "mixed": _cards(lambda c: RANK[c] in ("2", JOKER)),
}
