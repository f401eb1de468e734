"""Dealing a hand: the dealing order of README.md with the dummy as a seat at the dealer's right.

Cards go one at a time, clockwise from the dealer's left: left, opposite, dummy, dealer, five
rotations (E7). The next card is the up-card; it and the rest form the kitty (EU3-A15: 4 cards,
12 with the 32-card deck).

Deals are `engine.core.rng.shuffled(deck, seed, "deal", n)`; the first dealer is
`engine.core.rng.pick(players, seed, "dealer")`.
"""

from __future__ import annotations

from engine.core.fast import event
from engine.core.protocol import Event
from engine.core.rng import shuffled
from engine.euchre3.ranking import DECKS
from engine.euchre3.state import BID1, FACE_UP, Euchre3State

HAND_SIZE = 5


def deck_order(state: Euchre3State, round_number: int) -> tuple[str, ...] | list[str]:
    """The deck of deal `round_number`: the explicit one if given, else shuffled from the seed."""
    if round_number <= len(state.decks):
        return state.decks[round_number - 1]
    return shuffled(DECKS[state.options.deck], state.seed, "deal", round_number)


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


def deal(state: Euchre3State, round_number: int, dealer: int) -> Event:
    """Deal hand `round_number` into `state` (owned by the caller); the `dealt` event."""
    hands, dummy, kitty = split_deal(deck_order(state, round_number), dealer)
    state.phase = BID1
    state.up_status = FACE_UP
    state.trump = None
    state.maker = None
    state.maker_alone = None
    state.lone_defender = None
    state.sitting_out = None
    state.defence_queue = ()
    state.discards = ((), (), ())
    state.dead = ()
    state.trick = ()
    state.leader = None
    state.tricks_won = (0, 0, 0)
    state.played = ()
    state.last_trick = None
    state.last_trick_winner = None
    state.round = round_number
    state.dealer = dealer
    state.turn = (dealer + 1) % 3
    state.hands = hands
    state.dummy = dummy
    state.kitty = kitty
    state.up_card = kitty[0]
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
