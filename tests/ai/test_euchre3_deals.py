"""Euchre-3's strong player deals the cards it cannot see as the table showed them: a player who
passed holds a hand it would pass with, and a player who did not follow suit has none of it."""

from __future__ import annotations

import random

from engine.ai import choose, euchre3
from engine.ai.arena import arena_options
from engine.euchre3.ranking import EFFECTIVE_SUIT
from engine.registry import get_game

GAME = get_game("euchre3")
PLAYERS = ["p0", "p1", "p2"]


def _easy_until(stop):
    """The first state where `stop(state)` in matches of easy players (seeds 0, 1, ...)."""
    for seed in range(20):
        state = GAME.new(PLAYERS, arena_options(GAME), seed)
        for step in range(400):
            if stop(state):
                return state
            if GAME.is_finished(state):
                break
            player = GAME.to_act(state)[0]
            view = GAME.view(state, player)
            action = choose(GAME, view, GAME.legal_actions(state, player), player, "easy", step)
            state = GAME.advance(state, player, action).state
    raise AssertionError("no match reached the state looked for")


def test_a_player_who_passed_is_dealt_a_hand_it_would_pass_with():
    # the first bidder passed and the second is to speak: the dealer has not spoken yet
    state = _easy_until(lambda s: s.phase == "bid1" and s.turn == (s.dealer + 2) % 3)
    passer = (state.dealer + 1) % 3
    me = PLAYERS[state.turn]
    trump = state.up_card[-1]
    determinizer = euchre3.Determinizer(GAME.view(state, me))
    rng = random.Random(1)
    strengths = [euchre3.strength(determinizer.sample(rng).hands[passer], trump) for _ in range(60)]
    assert max(strengths) < 6.5
    unconstrained = [euchre3.strength(determinizer._deal(rng).hands[passer], trump) for _ in range(200)]
    assert max(unconstrained) >= 6.5  # the check is what keeps such hands out, not chance


def _showed_a_void(state) -> bool:
    if state.phase != "play" or not state.trick or PLAYERS[state.turn] != "p0":
        return False
    effective = EFFECTIVE_SUIT[state.trump]
    led = effective[state.trick[0][1]]
    return any(effective[card] != led for seat, card in state.trick[1:])


def test_a_player_who_did_not_follow_suit_is_dealt_none_of_it():
    state = _easy_until(_showed_a_void)
    effective = EFFECTIVE_SUIT[state.trump]
    led = effective[state.trick[0][1]]
    seat = next(seat for seat, card in state.trick[1:] if effective[card] != led)
    determinizer = euchre3.Determinizer(GAME.view(state, "p0"))
    rng = random.Random(2)
    for _ in range(60):
        assert all(effective[card] != led for card in determinizer.sample(rng).hands[seat])
