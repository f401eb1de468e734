"""Kadi's easy player (and the search's rollouts, which play it) scores a play from the hand
counted once; the scores must be those of the plain reading, play by play."""

from __future__ import annotations

import random

import pytest

from engine.ai import kadi
from engine.ai.arena import arena_options
from engine.kadi import GAME


@pytest.mark.parametrize("seed", range(8))
def test_every_listed_play_scores_as_the_plain_reading_scores_it(seed):
    rng = random.Random(seed)
    state = GAME.new([f"p{i}" for i in range(2 + seed % 3)], arena_options(GAME), seed)
    scored = 0
    for _ in range(400):
        if GAME.is_finished(state):
            break
        mover = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, mover)
        hand = state.hands[mover]
        shape = kadi._Hand(hand)
        for action in legal:
            if action["type"] == "play":
                assert shape.score(action) == kadi._play_score(action, hand)
                scored += 1
        state = GAME.apply(state, mover, rng.choice(legal)).state
    assert scored > 50


def test_a_play_not_from_the_hand_is_scored_by_the_plain_reading():
    hand = ["5H", "5S"]
    action = {"type": "play", "cards": ["5H", "5H"]}
    assert kadi._Hand(hand).score(action) == kadi._play_score(action, hand)
