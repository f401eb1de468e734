"""Dealing a hand: the dealing order of README.md with the dummy as a seat at the dealer's right.

Cards go one at a time, clockwise from the dealer's left: left, opposite, dummy, dealer, five
rotations (E7). The next card is the up-card; it and the rest form the kitty (EU3-A15: 4 cards,
12 with the 32-card deck).

Deals are `engine.core.rng.shuffled(deck, seed, "deal", n)` and the first dealer is
`rng_for(seed, "dealer").choice(players)`, reproduced exactly but cheaper by `_quick_shuffled`
and `_quick_first_dealer`: `random.Random(text)` goes through Python's `seed` (which turns the
text into the integer `text + SHA-512(text)`) and `shuffle` (like `choice`) calls `_randbelow`
per card. Here the C generator is seeded with that same integer directly and the rejection
sampling (`getrandbits(bound.bit_length())` until below the bound) runs inline. At import both
are checked against the reference; if this interpreter's `random` differs, the reference is used.
"""

from __future__ import annotations

import random
from _random import Random as _CoreRandom
from hashlib import sha512

from engine.core.protocol import Event
from engine.core.rng import rng_for, shuffled
from engine.euchre3.events import event
from engine.euchre3.ranking import DECKS
from engine.euchre3.state import BID1, FACE_UP, State

HAND_SIZE = 5


# deck size -> (bound, bits) of each draw of Random.shuffle, in order
_DRAWS = {
    len(deck): tuple((i + 1, (i + 1).bit_length()) for i in range(len(deck) - 1, 0, -1)) for deck in DECKS.values()
}


def _quick_generator(label: str) -> _CoreRandom:
    """The generator of `random.Random(label)` (rng_for's), seeded as Random.seed does it."""
    raw = label.encode()
    return _CoreRandom(int.from_bytes(raw + sha512(raw).digest(), "big"))


def _quick_shuffled(cards: tuple[str, ...], seed: int | str, round_number: int) -> list[str]:
    draw = _quick_generator(f"{str(seed)}/deal/{str(round_number)}").getrandbits
    deck = list(cards)
    for bound, bits in _DRAWS[len(deck)]:
        j = draw(bits)
        while j >= bound:
            j = draw(bits)
        i = bound - 1
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _quick_first_dealer(players: tuple[str, ...], seed: int | str) -> str:
    """`rng_for(seed, "dealer").choice(players)`: Random.choice's one `_randbelow` draw, inline."""
    draw = _quick_generator(f"{str(seed)}/dealer").getrandbits
    bits = len(players).bit_length()
    index = draw(bits)
    while index >= len(players):
        index = draw(bits)
    return players[index]


def _reference_first_dealer(players: tuple[str, ...], seed: int | str) -> str:
    return rng_for(seed, "dealer").choice(players)


def _reference_shuffled(cards: tuple[str, ...], seed: int | str, round_number: int) -> list[str]:
    return shuffled(cards, seed, "deal", round_number)


def _quick_is_exact() -> bool:
    if (
        random.Random.shuffle.__qualname__ != "Random.shuffle"
        or random.Random._randbelow is not random.Random._randbelow_with_getrandbits
    ):
        return False
    try:
        return all(
            _quick_shuffled(deck, seed, number) == _reference_shuffled(deck, seed, number)
            for deck in DECKS.values()
            for seed in (0, 1, 7, -5, 2**70, "table-42", "ü")
            for number in (1, 2, 3, 17)
        ) and all(
            _quick_first_dealer(players, seed) == _reference_first_dealer(players, seed)
            for players in (("a", "b", "c"), ("a", "b", "c", "d"))
            for seed in range(-20, 60)
        )
    except Exception:  # noqa: BLE001 - any surprise: keep to the reference
        return False


if _quick_is_exact():
    shuffled_deal, first_dealer = _quick_shuffled, _quick_first_dealer
else:
    shuffled_deal, first_dealer = _reference_shuffled, _reference_first_dealer


def deck_order(state: State, round_number: int) -> tuple[str, ...] | list[str]:
    """The deck of deal `round_number`: the explicit one if given, else shuffled from the seed."""
    if round_number <= len(state.decks):
        return state.decks[round_number - 1]
    return shuffled_deal(DECKS[state.options.deck], state.seed, round_number)


def split_deal(deck, dealer: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """(hands per seat, dummy, kitty) for `dealer`; the kitty's first card is the up-card.

    Deck positions 0, 4, 8, ... go to the dealer's left, 1, 5, ... opposite, 2, 6, ... to the
    dummy, 3, 7, ... to the dealer."""
    end = HAND_SIZE * 4
    deck = tuple(deck)  # its slices are then the tuples the state keeps
    parts = (deck[0:end:4], deck[1:end:4], deck[3:end:4])  # left, opposite, dealer
    first, second, third = _PART_OF_SEAT[dealer]
    return (parts[first], parts[second], parts[third]), deck[2:end:4], deck[end:]


# dealer -> for seats 0, 1, 2 the index in (left, opposite, dealer) of their hand
_PART_OF_SEAT = ((2, 0, 1), (1, 2, 0), (0, 1, 2))


# The fields every deal resets to the same values.
_FRESH = {
    "phase": BID1,
    "up_status": FACE_UP,
    "trump": None,
    "maker": None,
    "maker_alone": None,
    "lone_defender": None,
    "sitting_out": None,
    "defence_queue": (),
    "discards": ((), (), ()),
    "dead": (),
    "trick": (),
    "leader": None,
    "tricks_won": (0, 0, 0),
    "played": (),
    "last_trick": None,
    "last_trick_winner": None,
}


def deal(state: State, round_number: int, dealer: int) -> Event:
    """Deal hand `round_number` into `state` (owned by the caller); the `dealt` event."""
    hands, dummy, kitty = split_deal(deck_order(state, round_number), dealer)
    fields = state.__dict__
    fields.update(_FRESH)
    fields["round"] = round_number
    fields["dealer"] = dealer
    fields["turn"] = (dealer + 1) % 3
    fields["hands"] = hands
    fields["dummy"] = dummy
    fields["kitty"] = kitty
    fields["up_card"] = kitty[0]
    players = state.players
    return event(
        "dealt",
        {
            "round": round_number,
            "dealer": players[dealer],
            "up_card": kitty[0],
            "hand_size": HAND_SIZE,
        },
        {
            players[0]: {"hand": list(hands[0])},
            players[1]: {"hand": list(hands[1])},
            players[2]: {"hand": list(hands[2])},
        },
    )
