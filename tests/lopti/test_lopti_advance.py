"""`advance` (the in-place fast path) against `apply`: identical states and events on random
games, refusals leave the state unchanged, and states made by `apply` are never changed by an
`advance` on a state that shares lists with them."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import Applied, Refused
from engine.lopti import GAME

from .test_lopti_properties import wrong_actions
from .test_lopti_support import FIVE, FULL_DECK, card_places, random_action, random_options

option_sets = st.builds(lambda seed: random_options(random.Random(seed)), st.integers(0, 10**6))


def events_json(events) -> str:
    return json.dumps([event.to_json() for event in events], sort_keys=True)


@settings(deadline=None, max_examples=5)
@given(seed=st.integers(0, 10**9), count=st.integers(2, 5), options=option_sets)
def test_advance_and_apply_give_identical_states_and_events(seed, count, options):
    """Two copies of one table, one driven by `apply` and one by `advance`, stay equal (`dump`,
    `==`, events) over a round of random play, with refused actions tried in between."""
    rng = random.Random(seed)
    players = FIVE[:count]
    by_apply = GAME.new(players, GAME.Options(**options), seed)
    by_advance = GAME.new(players, GAME.Options(**options), seed)
    steps = 0
    while by_apply.round <= 1:
        steps += 1
        assert steps < 40_000, "a round did not end"
        for player, action in wrong_actions(by_apply, rng):
            before = GAME.dump(by_advance)
            copied, in_place = GAME.apply(by_apply, player, action), GAME.advance(by_advance, player, action)
            assert type(copied) is type(in_place)
            if isinstance(copied, Refused):
                assert (copied.code, copied.message) == (in_place.code, in_place.message)
                assert GAME.dump(by_advance) == before, "a refused advance changed the state"
            else:
                assert in_place.state is by_advance
                assert events_json(copied.events) == events_json(in_place.events)
                by_apply = copied.state
            assert GAME.dump(by_apply) == GAME.dump(by_advance)
        assert GAME.legal_actions(by_apply, players[0]) == GAME.legal_actions(by_advance, players[0])
        player, action = random_action(by_apply, rng)
        before = GAME.dump(by_apply)
        copied = GAME.apply(by_apply, player, action)
        in_place = GAME.advance(by_advance, player, action)
        assert isinstance(copied, Applied) and isinstance(in_place, Applied), (player, action)
        assert GAME.dump(by_apply) == before, "apply changed its input"
        assert in_place.state is by_advance
        assert copied.events == in_place.events
        assert events_json(copied.events) == events_json(in_place.events)
        by_apply, by_advance = copied.state, in_place.state
        assert GAME.dump(by_apply) == GAME.dump(by_advance)
        assert by_apply == by_advance
        assert card_places(by_advance) == FULL_DECK
    assert sum(GAME.scores(by_advance).values()) == 1


@settings(deadline=None, max_examples=5)
@given(seed=st.integers(0, 10**9), count=st.integers(2, 5), options=option_sets)
def test_advance_never_changes_states_it_shares_lists_with(seed, count, options):
    """`apply` shares unchanged lists between its input and its result; an `advance` on either
    one afterwards must leave the other's value alone (and events already returned too)."""
    rng = random.Random(seed)
    state = GAME.new(FIVE[:count], GAME.Options(**options), seed)
    frozen = []  # (a state no longer driven, its dump, events returned, their JSON)
    steps = 0
    while state.round == 1:
        steps += 1
        assert steps < 20_000, "a round did not end"
        player, action = random_action(state, rng)
        draw = rng.random()
        if draw < 0.4:  # go on from apply's result; the input (sharing lists with it) is kept
            result = GAME.apply(state, player, action)
            frozen.append((state, GAME.dump(state), result.events, events_json(result.events)))
        elif draw < 0.6:  # keep apply's result; go on advancing its input (sharing lists with it)
            kept = GAME.apply(state, player, action)
            frozen.append((kept.state, GAME.dump(kept.state), kept.events, events_json(kept.events)))
            result = GAME.advance(state, player, action)
        else:
            result = GAME.advance(state, player, action)
        assert isinstance(result, Applied)
        events = result.events
        frozen.append((None, None, events, events_json(events)))
        state = result.state
        for old, dumped, events, as_json in frozen[-20:]:
            if old is not None:
                assert GAME.dump(old) == dumped
            assert events_json(events) == as_json
