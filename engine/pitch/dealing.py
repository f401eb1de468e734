"""Dealing six cards each from an explicit or shuffled deck (P5, README's dealing order).

Cards go one at a time, clockwise, from the dealer's left round to the dealer, six rotations;
what is left is the undealt stock, which never takes part in the hand (PIT-A3).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.cards import Card
from engine.core.rng import shuffled
from engine.pitch.cards import DECK, HAND_ORDER

HAND_SIZE = 6


def deck_for_deal(seed: int | str, decks: Sequence[Sequence[Card]], number: int) -> list[Card]:
    """The order of deal `number` (1-based): the explicit deck if given, else a seeded shuffle."""
    if number <= len(decks):
        return list(decks[number - 1])
    return shuffled(DECK, seed, "deal", number)


def deal(deck: Sequence[Card], seats: int, dealer: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Hands by seat (sorted for display) and the undealt rest of the deck.

    Card `index` goes to seat (dealer + 1 + index) % seats, so a seat's cards are every `seats`-th
    of the first 6 * seats, from index (seat - dealer - 1) % seats.
    """
    dealt = HAND_SIZE * seats
    order = HAND_ORDER.__getitem__
    hands = tuple(tuple(sorted(deck[(seat - dealer - 1) % seats : dealt : seats], key=order)) for seat in range(seats))
    return hands, tuple(deck[dealt:])
