"""The in-place fast path: `advance` must be `apply` without the copy, on every kind of action.

Random games (the cautious players of the property tests, the turn timer now and then, and
illegal or malformed actions mixed in) are played twice, once through `apply` and once through
`advance`; states (`dump`) and events must be identical at every step, a refusal by `advance`
must leave the state it was given unchanged, and `apply` must never touch its input. The
inlined shuffle and deal are checked against the shared helpers they replace.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.playout import count_random_playout
from engine.core.protocol import CLOCK, Applied
from engine.core.rng import shuffled
from engine.pitch import GAME
from engine.pitch.cards import DECK, sort_hand
from engine.pitch.dealing import HAND_SIZE, deal, deck_for_deal
from tests.pitch.test_pitch_properties import MAX_HANDS, NAMES, choose, hand_bound, tables


def odd_actions(state, player):
    """Actions that are mostly refused: wrong cards, bids and types, other players, malformed shapes."""
    others = [p for p in state.players if p != player]
    return [
        (player, {"type": "play", "card": DECK[0]}),
        (player, {"type": "play", "card": "as"}),
        (player, {"type": "play", "card": 5}),
        (player, {"type": "play"}),
        (player, {"type": "bid", "value": 3}),
        (player, {"type": "bid", "value": True}),
        (player, {"type": "bid", "value": "2"}),
        (player, {"type": "pass"}),
        (player, {"type": "shout"}),
        (player, ["play", "AS"]),
        (others[0], {"type": "pass"}),
        (others[0], {"type": "play", "card": DECK[0]}),
        ("stranger", {"type": "pass"}),
        (CLOCK, {"type": "play", "card": DECK[0]}),
    ]


def outcome(result):
    if isinstance(result, Applied):
        return "applied", GAME.dump(result.state), [event.to_json() for event in result.events]
    return "refused", result.code, result.message, dict(result.details)


@settings(deadline=None, max_examples=30)
@given(tables(), st.integers(0, 2**32))
def test_advance_and_apply_give_identical_states_and_events(table, pick):
    players, options, seed, dealer = table
    rng = random.Random(pick)
    slow = GAME.new(players, options, seed, dealer)
    fast = GAME.new(players, options, seed, dealer)
    for _ in range(MAX_HANDS * hand_bound(len(players)) * 2):  # with refused actions in between
        if GAME.is_finished(slow) or slow.hand_number > MAX_HANDS:
            break
        if rng.random() < 0.15:
            player, action = rng.choice(odd_actions(slow, GAME.to_act(slow)[0]))
        else:
            player, action = choose(slow, rng)
        before = GAME.dump(slow)
        one = GAME.apply(slow, player, action)
        assert GAME.dump(slow) == before  # apply never mutates its input
        two = GAME.advance(fast, player, action)
        assert outcome(one) == outcome(two), (player, action)
        if isinstance(two, Applied):
            slow, fast = one.state, two.state
        else:
            assert GAME.dump(fast) == before  # a refusal leaves the given state unchanged
    else:
        raise AssertionError("the hands did not end")
    assert GAME.is_finished(fast) == GAME.is_finished(slow) and GAME.dump(fast) == GAME.dump(slow)
    assert GAME.winners(fast) == GAME.winners(slow)


@settings(deadline=None, max_examples=10)
@given(tables(), st.integers(0, 2**32))
def test_every_legal_action_is_accepted_by_advance_exactly_as_by_apply(table, pick):
    players, options, seed, dealer = table
    rng = random.Random(pick)
    state = GAME.new(players, options, seed, dealer)
    for _ in range(200):
        if GAME.is_finished(state):
            break
        [player] = GAME.to_act(state)
        legal = GAME.legal_actions(state, player) + [{"type": "timeout"}]
        for action in legal:
            who = CLOCK if action["type"] == "timeout" else player
            copy = GAME.load(GAME.dump(state))
            assert outcome(GAME.apply(state, who, action)) == outcome(GAME.advance(copy, who, action))
        player, action = choose(state, rng)
        state = GAME.apply(state, player, action).state


def test_the_core_playout_runs_through_advance():
    rng = random.Random(7)
    for seats in range(2, 8):
        state = GAME.new(NAMES[:seats], {"target": 7}, seats)
        # Uniformly random bids rarely end a match: stop after a few hands via max_steps.
        try:
            count_random_playout(GAME, state, rng, max_steps=500)
        except AssertionError as error:
            assert "did not end" in str(error)


def test_the_inlined_shuffle_is_the_shared_one():
    for seed in [*range(200), "", "abc", "ünï", -3, 10**40]:
        for number in (1, 2, 9, 250):
            assert deck_for_deal(seed, (), number) == shuffled(DECK, seed, "deal", number)


def test_dealing_by_slices_deals_one_card_at_a_time_from_the_dealers_left():
    rng = random.Random(3)
    for seats in range(2, 8):
        for dealer in range(seats):
            deck = list(DECK)
            rng.shuffle(deck)
            hands = [[] for _ in range(seats)]
            for index in range(HAND_SIZE * seats):
                hands[(dealer + 1 + index) % seats].append(deck[index])
            assert deal(deck, seats, dealer) == (tuple(sort_hand(h) for h in hands), tuple(deck[HAND_SIZE * seats :]))
