"""Property tests over random seeds, player counts and option sets, playing to the end."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied, Refused
from engine.three_thirteen import GAME

from .test_three_thirteen_walk import cards_in_play, new_match, option_sets, walk

matches = given(
    seed=st.integers(0, 10**9),
    count=st.integers(2, 4),
    chosen=option_sets,
    clock_share=st.floats(0.25, 0.6),
)


def _deck(state):
    return Counter(GAME.deck(GAME.Options(**state.options), state.players))


@settings(deadline=None, max_examples=6)
@matches
def test_every_card_is_in_exactly_one_place_at_every_step(seed, count, chosen, clock_share):
    state = new_match(seed, count, chosen)
    deck = _deck(state)
    assert cards_in_play(state) == deck
    moves = 0
    for move in walk(state, random.Random(seed), clock_share):
        assert cards_in_play(move.after) == deck
        hand_sizes = {len(move.after.hands[p]) for p in move.after.seated if p not in move.after.table}
        assert len(hand_sizes) <= 2
        moves += 1
    assert GAME.is_finished(move.after) and GAME.winners(move.after) and moves > 0


def _illegal_actions(state, rng):
    """Actions that the rules cannot allow now."""
    players = state.players
    waiting = GAME.to_act(state)
    others = [p for p in players if p not in waiting]
    yield others[0] if others else players[0], {"type": "draw", "from": "stock"}
    player = waiting[0]
    hand = state.hands[player]
    absent = next(card for card in GAME.deck(GAME.Options(**state.options), players) if card not in hand)
    yield player, {"type": "discard", "card": absent}
    if state.phase == "draw":
        yield player, {"type": "discard", "card": hand[0]}
        yield player, {"type": "go_out", "discard": hand[0]}
    else:
        yield player, {"type": "draw", "from": rng.choice(["stock", "discard"])}
        legal_outs = {a["discard"] for a in GAME.legal_actions(state, player) if a["type"] == "go_out"}
        for card in set(hand) - legal_outs:
            yield player, {"type": "go_out", "discard": card}
            break


@settings(deadline=None, max_examples=5)
@matches
def test_offered_actions_are_accepted_and_refused_ones_change_nothing(seed, count, chosen, clock_share):
    state = new_match(seed, count, chosen)
    rng = random.Random(seed + 1)
    for index, move in enumerate(walk(state, random.Random(seed), clock_share)):
        state = move.after
        if GAME.is_finished(state) or index % 3:
            continue
        frozen = json.dumps(GAME.dump(state), sort_keys=True)
        for player in GAME.to_act(state):
            for action in GAME.legal_actions(state, player):
                assert GAME.check_action(player, action, state.players) == action
                assert isinstance(GAME.apply(state, player, action), Applied), action
        assert isinstance(GAME.apply(state, CLOCK, {"type": "timeout"}), Applied)
        for player, action in _illegal_actions(state, rng):
            result = GAME.apply(state, player, action)
            assert isinstance(result, Refused), (player, action)
            assert result.code and result.message
        assert json.dumps(GAME.dump(state), sort_keys=True) == frozen  # nothing changed the input


@settings(deadline=None, max_examples=5)
@matches
def test_replaying_the_actions_reproduces_the_match(seed, count, chosen, clock_share):
    state = new_match(seed, count, chosen)
    record = [(move.player, move.action) for move in walk(state, random.Random(seed), clock_share)]
    final = None
    replayed = new_match(seed, count, chosen)
    for player, action in record:
        replayed = GAME.apply(replayed, player, action).state
    for move in walk(state, random.Random(seed), clock_share):
        final = move.after
    assert GAME.dump(replayed) == GAME.dump(final)
    assert GAME.scores(replayed) == GAME.scores(final) and GAME.winners(replayed) == GAME.winners(final)


@settings(deadline=None, max_examples=5)
@matches
def test_state_survives_a_json_round_trip(seed, count, chosen, clock_share):
    state = new_match(seed, count, chosen)
    for index, move in enumerate(walk(state, random.Random(seed), clock_share)):
        if index % 5:
            continue
        before = move.before
        loaded = GAME.load(json.loads(json.dumps(GAME.dump(before))))
        assert GAME.dump(loaded) == GAME.dump(before)
        for player in GAME.to_act(before):
            assert GAME.legal_actions(loaded, player) == GAME.legal_actions(before, player)
        assert GAME.view(loaded, None) == GAME.view(before, None)
        again = GAME.apply(loaded, move.player, move.action)
        assert GAME.dump(again.state) == GAME.dump(move.after)
        assert [e.to_json() for e in again.events] == [e.to_json() for e in move.events]
        json.dumps([e.to_json() for e in move.events])  # events are JSON-ready too
