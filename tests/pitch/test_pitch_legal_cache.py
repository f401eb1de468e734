"""The legal-action list cached on a state: shared with callers, never stale, never a way around a check.

`legal_actions` hands out one cached list (and one shared dict per card or bid); `advance` accepts
an action found in it without re-checking the rules. These tests pin down what that must not change.
"""

from __future__ import annotations

import random

from engine.core.protocol import CLOCK, Applied, Refused
from engine.pitch import GAME
from tests.pitch.test_pitch_properties import NAMES


def fresh_legal(state, player):
    """The legal actions computed from scratch (a loaded state has no cache)."""
    return GAME.legal_actions(GAME.load(GAME.dump(state)), player)


def test_apply_from_one_state_never_leaves_a_stale_list_behind():
    rng = random.Random(5)
    state = GAME.new(NAMES[:4], {}, 11)
    for _ in range(400):
        if GAME.is_finished(state):
            break
        [player] = GAME.to_act(state)
        legal = GAME.legal_actions(state, player)
        assert legal == fresh_legal(state, player)
        for action in legal:  # every branch from the same state, each on its own copy
            branch = GAME.apply(state, player, action).state
            [next_player] = GAME.to_act(branch) or [None]
            if next_player is not None:
                assert GAME.legal_actions(branch, next_player) == fresh_legal(branch, next_player)
        assert GAME.legal_actions(state, player) == legal == fresh_legal(state, player)
        state = GAME.advance(state, player, rng.choice(legal)).state


def test_actions_equal_to_a_legal_one_but_not_of_the_vocabulary_are_still_refused():
    state = GAME.new(NAMES[:4], {}, 3)
    [player] = GAME.to_act(state)
    assert {"type": "bid", "value": 1} in GAME.legal_actions(state, player)
    for value in (True, 1.0):  # equal to 1 in Python, but not a bid
        result = GAME.advance(state, player, {"type": "bid", "value": value})
        assert isinstance(result, Refused) and result.code == "bid_out_of_range"
    others = [p for p in state.players if p != player]
    result = GAME.advance(state, others[0], GAME.legal_actions(state, player)[0])
    assert isinstance(result, Refused) and result.code == "not_your_turn"
    assert GAME.legal_actions(state, CLOCK) == [{"type": "timeout"}]
    assert GAME.legal_actions(state, others[0]) == []


def test_a_copy_of_a_legal_action_is_accepted_like_the_shared_one():
    state = GAME.new(NAMES[:3], {}, 8)
    while not GAME.is_finished(state) and state.hand_number < 3:
        [player] = GAME.to_act(state)
        action = dict(GAME.legal_actions(state, player)[-1])
        shared = GAME.apply(state, player, GAME.legal_actions(state, player)[-1])
        copied = GAME.advance(state, player, action)
        assert isinstance(copied, Applied)
        assert GAME.dump(copied.state) == GAME.dump(shared.state)
        assert [e.to_json() for e in copied.events] == [e.to_json() for e in shared.events]
        state = copied.state
