"""Pitch's card tables: suit, rank value and trick points (P3, P19) of every card of the 52-card pack.

The engine looks cards up in these tables instead of parsing codes: a playout reads them for
every legal-action list and every trick.
"""

from __future__ import annotations

from engine.core.cards import RANK_VALUE, SUITS, Card, deck_52

DECK: tuple[Card, ...] = tuple(deck_52())
SUIT: dict[Card, str] = {card: card[-1] for card in DECK}
RANK: dict[Card, int] = {card: RANK_VALUE[card[:-1]] for card in DECK}
SUIT_ORDER: dict[str, int] = {suit: index for index, suit in enumerate(SUITS)}
TRICK_POINTS: dict[Card, int] = {card: {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(card[:-1], 0) for card in DECK}
# Display order of a hand: by suit (S, H, D, C), then rank from low to high.
HAND_ORDER: dict[Card, int] = {card: SUIT_ORDER[SUIT[card]] * 20 + RANK[card] for card in DECK}
# The cards of each suit, as a set for quick "holds any of" tests (set.isdisjoint runs in C).
OF_SUIT: dict[str, frozenset[Card]] = {suit: frozenset(card for card in DECK if SUIT[card] == suit) for suit in SUITS}


def sort_hand(cards) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=HAND_ORDER.__getitem__))
