"""A random walk through a match for property tests: random legal actions mixed with timeouts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from engine.core.options import parse_options
from engine.core.protocol import CLOCK, Applied, Event
from engine.three_thirteen import GAME

option_sets = st.fixed_dictionaries(
    {},
    optional={
        "wild_only_melds": st.booleans(),
        "ace": st.sampled_from(["low", "high_or_low"]),
        "court_values": st.sampled_from(["ten", "rank"]),
        "jokers": st.sampled_from([0, 2, 4]),
        "discard_taken_card": st.booleans(),
        "first_turn_go_out": st.booleans(),
        "tie": st.sampled_from(["shared", "tiebreak_round"]),
    },
)
NAMES = ["amina", "baraka", "chausiku", "daudi"]


@dataclass(frozen=True)
class Move:
    player: str
    action: dict[str, Any]
    before: Any
    after: Any
    events: list[Event]


def new_match(seed: int, count: int, chosen: dict[str, Any]):
    return GAME.new(NAMES[:count], parse_options(GAME.Options, chosen), seed)


def walk(state, rng: random.Random, clock_share: float, limit: int = 20_000) -> Iterator[Move]:
    """Yield every applied move until the match ends."""
    for _ in range(limit):
        if GAME.is_finished(state):
            return
        if rng.random() < clock_share:
            player, action = CLOCK, {"type": "timeout"}
        else:
            player = rng.choice(GAME.to_act(state))
            action = rng.choice(GAME.legal_actions(state, player))
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied), (player, action, result)
        yield Move(player, action, state, result.state, result.events)
        state = result.state
    raise AssertionError("match did not end")


def cards_in_play(state) -> Counter:
    """Every card of the deal: hands, stock, discard pile and melds laid on the table."""
    places = Counter(state.stock) + Counter(state.discard)
    for hand in state.hands.values():
        places += Counter(hand)
    for melds in state.table.values():
        for meld in melds:
            places += Counter(meld)
    return places
