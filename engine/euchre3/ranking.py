"""Card power in Euchre: bowers, effective suits, trick winners and the timeout strength order.

Everything is precomputed per trump suit into plain dicts, so the hot paths (legal plays, trick
winners) are dictionary look-ups. Ranks follow E4/E5 (9 lowest, EU3-A14; 7 and 8 below the 9
with the 32-card deck, EU3-A15).
"""

from __future__ import annotations

from engine.core.cards import SUITS, Card, deck_24, deck_32

SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
PLAIN_ORDER = (
    "A",
    "K",
    "Q",
    "J",
    "10",
    "9",
    "8",
    "7",
)  # strongest first, outside trumps
TRUMP_ORDER = ("A", "K", "Q", "10", "9", "8", "7")  # below the two bowers
SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}  # S, H, D, C

DECKS: dict[int, tuple[Card, ...]] = {24: tuple(deck_24()), 32: tuple(deck_32())}
DECK_SETS: dict[int, frozenset[Card]] = {size: frozenset(cards) for size, cards in DECKS.items()}
ALL_CARDS = DECKS[32]


def suit_of(card: Card) -> str:
    return card[-1]


def rank_of(card: Card) -> str:
    return card[:-1]


def right_bower(trump: str) -> Card:
    return "J" + trump


def left_bower(trump: str) -> Card:
    return "J" + SAME_COLOUR[trump]


def _effective_suits(trump: str) -> dict[Card, str]:
    table = {card: suit_of(card) for card in ALL_CARDS}
    table[left_bower(trump)] = trump
    return table


def _trick_power(trump: str) -> dict[Card, int]:
    """Higher wins. Trumps are 100+, plain cards 1..8 (compared only within the suit led)."""
    power = {}
    for card in ALL_CARDS:
        rank = rank_of(card)
        if card == right_bower(trump):
            power[card] = 200
        elif card == left_bower(trump):
            power[card] = 199
        elif suit_of(card) == trump:
            power[card] = 100 + len(TRUMP_ORDER) - TRUMP_ORDER.index(rank)
        else:
            power[card] = len(PLAIN_ORDER) - PLAIN_ORDER.index(rank)
    return power


def _strength_key(trump: str) -> dict[Card, tuple[int, int, int]]:
    """Section 8 order, strongest first: trumps (R, L, A, K, Q, 10, 9), then plain cards by rank
    (A, K, Q, J, 10, 9), ties by suit S, H, D, C. Sorting by this key ascending = strongest first."""
    power = _trick_power(trump)
    keys = {}
    for card in ALL_CARDS:
        if EFFECTIVE_SUIT[trump][card] == trump:
            keys[card] = (0, -power[card], 0)
        else:
            keys[card] = (
                1,
                PLAIN_ORDER.index(rank_of(card)),
                SUIT_INDEX[suit_of(card)],
            )
    return keys


EFFECTIVE_SUIT: dict[str, dict[Card, str]] = {trump: _effective_suits(trump) for trump in SUITS}
TRICK_POWER: dict[str, dict[Card, int]] = {trump: _trick_power(trump) for trump in SUITS}
STRENGTH_KEY: dict[str, dict[Card, tuple[int, int, int]]] = {trump: _strength_key(trump) for trump in SUITS}


def _following(trump: str) -> dict[Card, frozenset[Card]]:
    """Led card -> the cards that follow it, i.e. share its effective suit."""
    effective = EFFECTIVE_SUIT[trump]
    suits = {suit: frozenset(card for card in ALL_CARDS if effective[card] == suit) for suit in SUITS}
    return {card: suits[effective[card]] for card in ALL_CARDS}


# trump -> card led -> the cards of its effective suit: `legal_plays` (E24/EU3-A10) in one
# look-up per card, without going through the suit led on every play.
FOLLOWING: dict[str, dict[Card, frozenset[Card]]] = {trump: _following(trump) for trump in SUITS}


def _trick_values(trump: str, led_suit: str) -> dict[Card, int]:
    """A card's power in a trick led in (effective) `led_suit`: 0 unless trump or of the suit led."""
    effective, power = EFFECTIVE_SUIT[trump], TRICK_POWER[trump]
    return {card: power[card] if effective[card] in (trump, led_suit) else 0 for card in ALL_CARDS}


# trump -> effective suit led -> card -> power in that trick (higher wins; distinct unless 0)
TRICK_VALUE: dict[str, dict[str, dict[Card, int]]] = {
    trump: {led: _trick_values(trump, led) for led in SUITS} for trump in SUITS
}


def strongest_first(cards, trump: str) -> list[Card]:
    return sorted(cards, key=STRENGTH_KEY[trump].__getitem__)


def weakest(cards, trump: str) -> Card:
    return max(cards, key=STRENGTH_KEY[trump].__getitem__)


def legal_plays(hand: tuple[Card, ...], led: Card | None, trump: str) -> tuple[Card, ...]:
    """E24/EU3-A10: follow the effective suit led if possible (the left bower is a trump)."""
    if led is None:
        return hand
    return tuple(filter(FOLLOWING[trump][led].__contains__, hand)) or hand
