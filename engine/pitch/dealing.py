"""Dealing six cards each from an explicit or shuffled deck (P5, README's dealing order), and its inverse.

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


def stack_deck(hands: Sequence[Sequence[Card]], dealer: int) -> list[Card]:
    """A 52-card deck that deals `hands[seat]` to each seat when `dealer` deals; the rest follow in pack order.

    Used by tests and by anyone who wants an exact situation at the table.
    """
    seats = len(hands)
    wanted = [[c.upper() for c in hand] for hand in hands]
    if any(len(hand) != HAND_SIZE for hand in wanted):
        raise ValueError("every hand needs exactly six cards")
    order: list[Card] = []
    for rotation in range(HAND_SIZE):
        for step in range(seats):
            order.append(wanted[(dealer + 1 + step) % seats][rotation])
    if len(set(order)) != len(order) or not set(order) <= set(DECK):
        raise ValueError("hands must hold distinct cards of the 52-card pack")
    taken = set(order)
    return order + [card for card in DECK if card not in taken]
