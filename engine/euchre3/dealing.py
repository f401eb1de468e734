"""Dealing a hand: the dealing order of README.md with the dummy as a seat at the dealer's right.

Cards go one at a time, clockwise from the dealer's left: left, opposite, dummy, dealer, five
rotations (E7). The next card is the up-card; it and the rest form the kitty (EU3-A15: 4 cards,
12 with the 32-card deck).
"""

from __future__ import annotations

from engine.core.protocol import Event
from engine.core.rng import shuffled
from engine.euchre3.ranking import DECKS
from engine.euchre3.state import BID1, FACE_UP, State

HAND_SIZE = 5


def deck_order(state: State, round_number: int) -> tuple[str, ...]:
    """The deck of deal `round_number`: the explicit one if given, else shuffled from the seed."""
    if round_number <= len(state.decks):
        return state.decks[round_number - 1]
    return tuple(shuffled(DECKS[state.options.deck], state.seed, "deal", round_number))


def split_deal(deck: tuple[str, ...], dealer: int) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """(hands per seat, dummy, kitty) for `dealer`; the kitty's first card is the up-card."""
    left, opposite = (dealer + 1) % 3, (dealer + 2) % 3
    positions = (left, opposite, "dummy", dealer)
    hands: dict[object, list[str]] = {position: [] for position in positions}
    for index in range(HAND_SIZE * 4):
        hands[positions[index % 4]].append(deck[index])
    per_seat = tuple(tuple(hands[seat]) for seat in range(3))
    return per_seat, tuple(hands["dummy"]), tuple(deck[HAND_SIZE * 4 :])


def deal(state: State, round_number: int, dealer: int) -> Event:
    """Deal hand `round_number` into `state` (a fresh copy the caller owns); the `dealt` event."""
    hands, dummy, kitty = split_deal(deck_order(state, round_number), dealer)
    state.round = round_number
    state.dealer = dealer
    state.phase = BID1
    state.turn = (dealer + 1) % 3
    state.hands = hands
    state.dummy = dummy
    state.kitty = kitty
    state.up_card = kitty[0]
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
    players = state.players
    return Event(
        "dealt",
        {"round": round_number, "dealer": players[dealer], "up_card": kitty[0], "hand_size": HAND_SIZE},
        {players[seat]: {"hand": list(hands[seat])} for seat in range(3)},
    )
