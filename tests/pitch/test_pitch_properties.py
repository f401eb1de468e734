"""Random-play properties of the Pitch engine (hypothesis over seeds, seat counts and option sets).

The players bid cautiously (a pass more often than not, as real players do): under uniformly
random bids nearly every hand's pitcher is set back, totals drift downwards and, true to the
rules, nobody ever reaches the target. Card play is uniformly random among the legal cards,
and the turn timer fires now and then.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied, Refused
from engine.pitch import GAME, PitchOptions
from engine.pitch.cards import DECK

NAMES = ["amina", "baraka", "chausiku", "dudu", "eshe", "faraji", "gasira"]
MAX_ACTIONS = 20_000


@st.composite
def tables(draw):
    partnerships = draw(st.booleans())
    seats = 4 if partnerships else draw(st.integers(2, 7))
    options = PitchOptions(
        target=draw(st.sampled_from([7, 11, 15, 21])),
        low_to=draw(st.sampled_from(["capturer", "dealt"])),
        win_condition=draw(st.sampled_from(["pitcher_at_target", "pitcher_made_bid", "anyone"])),
        min_bid=draw(st.sampled_from([1, 2])),
        smudge=draw(st.booleans()),
        dealer_steal=draw(st.booleans()),
        partnerships=partnerships,
    )
    seed = draw(st.integers(0, 10**9) | st.text(max_size=8))
    dealer = draw(st.none() | st.sampled_from(NAMES[:seats]))
    return NAMES[:seats], options, seed, dealer


def choose(state, rng: random.Random):
    """A cautious random player, with an occasional timeout."""
    [player] = GAME.to_act(state)
    actions = GAME.legal_actions(state, player)
    if rng.random() < 0.05:
        return CLOCK, {"type": "timeout"}
    if actions[0]["type"] == "pass" and rng.random() < 0.6:
        return player, actions[0]
    if actions[0]["type"] in ("pass", "bid"):
        bids = [a for a in actions if a["type"] == "bid"]
        return player, bids[0] if rng.random() < 0.7 else rng.choice(bids)
    return player, rng.choice(actions)


def card_places(state) -> Counter:
    places = Counter(state.stock) + Counter(state.trick)
    for hand in state.hands:
        places.update(hand)
    for cards in state.won:
        places.update(cards)
    return places


def illegal_actions(state, player):
    legal = GAME.legal_actions(state, player)
    tries = [{"type": "play", "card": card} for card in DECK if {"type": "play", "card": card} not in legal]
    tries += [{"type": "bid", "value": v} for v in range(0, 7) if {"type": "bid", "value": v} not in legal]
    if {"type": "pass"} not in legal:
        tries.append({"type": "pass"})
    others = [p for p in state.players if p != player]
    return [(player, action) for action in tries] + [(others[0], legal[0])]


def play_match(players, options, seed, dealer, rng, check_each_step):
    state = GAME.new(players, options, seed, dealer)
    actions = []
    while not GAME.is_finished(state):
        assert len(actions) < MAX_ACTIONS, "match did not end"
        check_each_step(state)
        player, action = choose(state, rng)
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied), (action, result)
        actions.append((player, action))
        state = result.state
    check_each_step(state)
    return state, actions


@settings(deadline=None, max_examples=25)
@given(tables(), st.randoms(use_true_random=False))
def test_every_card_is_in_exactly_one_place_and_every_match_ends(table, rng):
    players, options, seed, dealer = table

    def check(state):
        assert card_places(state) == Counter(DECK)
        in_trick = _played_this_trick(state)
        for seat, hand in enumerate(state.hands):
            assert len(hand) == 6 - state.tricks_played - (seat in in_trick)

    state, _ = play_match(players, options, seed, dealer, rng, check)
    assert GAME.winners(state) and GAME.to_act(state) == []


def _played_this_trick(state):
    seats = len(state.players)
    return {(state.leader + i) % seats for i in range(len(state.trick))}


@settings(deadline=None, max_examples=12)
@given(tables(), st.randoms(use_true_random=False))
def test_every_offered_action_is_accepted_and_refused_ones_change_nothing(table, rng):
    players, options, seed, dealer = table

    def check(state):
        if GAME.is_finished(state):
            assert GAME.legal_actions(state, players[0]) == []
            return
        before = GAME.dump(state)
        [player] = GAME.to_act(state)
        for action in GAME.legal_actions(state, player):
            assert isinstance(GAME.apply(state, player, action), Applied), action
        for who, action in rng.sample(illegal_actions(state, player), 6):
            assert isinstance(GAME.apply(state, who, action), Refused), (who, action)
        assert GAME.dump(state) == before

    play_match(players, options, seed, dealer, rng, check)


@settings(deadline=None, max_examples=20)
@given(tables(), st.randoms(use_true_random=False))
def test_replaying_the_recorded_actions_reproduces_the_match(table, rng):
    players, options, seed, dealer = table
    final, actions = play_match(players, options, seed, dealer, rng, lambda state: None)
    state = GAME.new(players, options, seed, dealer)
    for player, action in actions:
        state = GAME.apply(state, player, action).state
    assert GAME.dump(state) == GAME.dump(final)
    assert GAME.winners(state) == GAME.winners(final) and GAME.scores(state) == GAME.scores(final)


@settings(deadline=None, max_examples=20)
@given(tables(), st.randoms(use_true_random=False))
def test_state_survives_a_json_round_trip(table, rng):
    players, options, seed, dealer = table
    check_rng = random.Random(rng.random())

    def check(state):
        if check_rng.random() > 0.2:
            return
        copy = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert copy == state
        assert GAME.view(copy, None) == GAME.view(state, None)
        if GAME.is_finished(state):
            return
        [player] = GAME.to_act(state)
        assert GAME.legal_actions(copy, player) == GAME.legal_actions(state, player)
        action = check_rng.choice(GAME.legal_actions(state, player))
        one, two = GAME.apply(state, player, action), GAME.apply(copy, player, action)
        assert GAME.dump(one.state) == GAME.dump(two.state)
        assert [e.to_json() for e in one.events] == [e.to_json() for e in two.events]

    play_match(players, options, seed, dealer, rng, check)


def test_uniformly_random_bids_never_break_the_engine():
    """Uniformly random legal actions (the core playout's policy) for a long stretch: always legal, cards conserved."""
    from engine.core.playout import random_steps

    for seed in range(6):
        state = GAME.new(NAMES[: 2 + seed], PitchOptions(), seed)
        for step in random_steps(GAME, state, random.Random(seed), max_steps=10**9):
            assert card_places(step.state) == Counter(DECK)
            if step.state.hand_number > 15:
                break
        assert step.state.hand_number > 15 or GAME.is_finished(step.state)
