"""Lopti's strong player takes shortcuts that must not change a move: the rollout policy picks
its play without listing every play, a rollout's deal stops at the round's end, and a move that
can no longer beat easy's is not played out further."""

from __future__ import annotations

import random

import pytest

from engine.ai import lopti
from engine.ai.arena import arena_options
from engine.lopti import GAME
from engine.lopti.game import play_listed
from engine.lopti.state import AUTHORING, PLAY


def _play_states(seed: int, options=None):
    """Every state of a random match's play phases, with its player to act."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(2 + seed % 3)]
    state = GAME.new(players, options or arena_options(GAME), seed)
    for _ in range(600):
        mover = GAME.to_act(state)[0]
        if state.phase == PLAY:
            yield state, mover
        state = GAME.apply(state, mover, rng.choice(GAME.legal_actions(state, mover))).state


@pytest.mark.parametrize("seed", range(6))
def test_the_rollout_policy_plays_what_it_would_pick_from_the_listed_actions(seed):
    options = GAME.Options(house_rules="off", ten_on_seven=seed % 2 == 1, sevens_stack_singly=seed % 3 == 0)
    plays = 0
    for state, mover in _play_states(seed, options):
        picked = lopti.quick_play(state)
        listed = lopti.quick(GAME.legal_actions(state, mover))
        if picked is None:
            assert listed["type"] != "play"
            continue
        assert picked == listed
        played = state.copy()
        play_listed(played, picked["cards"])
        assert GAME.dump(played) == GAME.dump(GAME.apply(state, mover, picked).state)
        plays += 1
    assert plays > 50


def _searched_views(count: int):
    """Views of players to act in play with more than one distinct move to compare."""
    found = []
    for seed in range(40):
        for index, (state, mover) in enumerate(_play_states(seed)):
            view = GAME.view(state, mover)
            if index % 7 == 3 and len(lopti.candidates(view, GAME.legal_actions(state, mover))) > 1:
                found.append((view, GAME.legal_actions(state, mover), seed * 1000 + index))
                break
        if len(found) == count:
            return found
    raise AssertionError("too few states with a choice")


def _strong_without_shortcut(view, legal, rng):
    """The search as it reads in docs/ai/lopti.md: every move on every deal, to the round's end."""
    moves = lopti.candidates(view, legal)
    default = moves.index(lopti.easy(view, moves, rng))
    determinizer = lopti.Determinizer(view)
    deals = max(1, lopti.PLAYOUTS // len(moves))
    totals = [0.0] * len(moves)
    for _ in range(deals):
        deal = determinizer.sample(rng)
        for index, move in enumerate(moves):
            state = GAME.advance(deal.copy(), view["me"], move).state
            start = state.round
            while state.round == start and state.phase == PLAY:
                mover = GAME.to_act(state)[0]
                state = GAME.advance(state, mover, lopti.quick(GAME.legal_actions(state, mover))).state
            totals[index] += 1.0 if state.wins[state.players.index(view["me"])] > view["seats"][view["me"]]["wins"] else 0.0
    best = max(range(len(moves)), key=totals.__getitem__)
    return moves[best] if totals[best] > totals[default] + lopti.MARGIN * deals else moves[default]


def test_the_strong_players_shortcuts_leave_its_move_as_it_was(monkeypatch):
    monkeypatch.setattr(lopti, "PLAYOUTS", 60)  # fewer deals: the test is about equality, not strength
    for view, legal, seed in _searched_views(5):
        assert lopti.strong(view, legal, random.Random(seed)) == _strong_without_shortcut(view, legal, random.Random(seed))


def test_a_rollouts_deal_ends_with_its_round():
    state, mover = next(_play_states(3))
    view = GAME.view(state, mover)
    deal = lopti.Determinizer(view, round_only=True).sample(random.Random(1))
    start = deal.round
    while deal.phase == PLAY:
        player = GAME.to_act(deal)[0]
        deal = GAME.advance(deal, player, lopti.quick(GAME.legal_actions(deal, player))).state
    assert (deal.round, deal.phase) == (start, AUTHORING)
    assert lopti.Determinizer(view).sample(random.Random(1)).options["house_rules"] == "off"
