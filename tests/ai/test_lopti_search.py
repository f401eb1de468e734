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
from engine.lopti.rules import VALUE
from engine.lopti.state import PLAY


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


def _plain_rollout(deal, player: str, wins_before: int) -> float:
    """A rollout as it reads in docs/ai/lopti.md: easy's play picked from the listed actions and
    applied through `advance`, until the round is over (the next round dealt)."""
    start = deal.round
    while deal.round == start and deal.phase == PLAY:
        mover = GAME.to_act(deal)[0]
        deal = GAME.advance(deal, mover, lopti.quick(GAME.legal_actions(deal, mover))).state
    return 1.0 if deal.wins[deal.players.index(player)] > wins_before else 0.0


def test_a_rollout_with_its_shortcuts_ends_as_the_plain_rollout_does():
    for view, legal, seed in _searched_views(5):
        rng = random.Random(seed)
        quick_deals = lopti.Determinizer(view, round_only=True)
        plain_deals = lopti.Determinizer(view)
        for _ in range(20):
            state = rng.getstate()
            deal = quick_deals.sample(rng)
            rng.setstate(state)
            plain = plain_deals.sample(rng)
            for move in lopti.candidates(view, legal):
                after = GAME.advance(deal.copy(), view["me"], move).state
                plain_after = GAME.advance(plain.copy(), view["me"], move).state
                assert lopti.rollout(GAME, after, view["me"], view, rng) == _plain_rollout(
                    plain_after, view["me"], view["seats"][view["me"]]["wins"]
                )


def test_a_move_is_surely_better_only_with_enough_deals_that_agree():
    same = lopti.Paired()
    for _ in range(lopti.MIN_DEALS):
        same.add(0.0)
    assert same.bounds()[1] < lopti.MARGIN  # never better on any deal: dropped
    better = lopti.Paired()
    for difference in [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0]:
        better.add(difference)
    assert better.bounds()[0] > lopti.MARGIN  # won 7 of 10 deals easy's move lost: surely better
    lucky = lopti.Paired()
    for difference in [1.0, -1.0, 0.0, 1.0, 0.0, -1.0, 1.0, 0.0]:
        lucky.add(difference)
    low, high = lucky.bounds()
    assert low < lopti.MARGIN < high  # ahead on the mean (0.125), but not surely: kept, not played


def _view_with_distinct_ranks():
    for view, legal, seed in _searched_views(12):
        moves = lopti.candidates(view, legal)
        ranks = [VALUE[move["cards"][0]] for move in moves if move["type"] == "play"]
        if len(ranks) == len(moves) >= 3 and len(set(ranks)) == len(ranks) and 10 not in ranks:
            return view, legal, seed
    raise AssertionError("no view with three plays of distinct ranks")


@pytest.mark.parametrize("winning", ["easy's move", "another move", "no move"])
def test_the_strong_player_leaves_easys_move_only_for_a_surely_better_one(monkeypatch, winning):
    view, legal, seed = _view_with_distinct_ranks()
    moves = lopti.candidates(view, legal)
    easys = lopti.easy(view, moves, random.Random(seed))
    other = next(move for move in moves if move != easys)
    target = {"easy's move": easys, "another move": other, "no move": None}[winning]

    def rollout(game, state, player, view, rng):  # wins exactly when the target was played
        played = state.pile[-1] if state.pile else None
        return 1.0 if target and played and VALUE[played] == VALUE[target["cards"][0]] else 0.0

    monkeypatch.setattr(lopti, "rollout", rollout)
    expected = other if winning == "another move" else easys
    assert lopti.strong(view, legal, random.Random(seed)) == expected
