"""What a player would notice of a computer player: it always makes a legal move, it plays
fair (its move does not change when cards it cannot see are dealt differently), and it never
takes part in Lopti's votes."""

from __future__ import annotations

import random

import pytest

from engine.ai import LEVELS, choose
from engine.registry import get_game
from tests.ai.helpers import GAMES, midgame, reshuffle_unseen, small_budget

SEEDS = range(4)


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch):
    small_budget(monkeypatch)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_level_makes_a_legal_move(name, seed):
    game, state, player = midgame(name, seed)
    legal = game.legal_actions(state, player)
    view = game.view(state, player)
    for level in LEVELS:
        action = choose(game, view, legal, player, level, seed)
        assert action in legal, (level, action)
        assert game.apply(state, player, action).ok


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_decision_does_not_change_when_unseen_cards_are_swapped(name, seed):
    game, state, player = midgame(name, 10 + seed)
    other = reshuffle_unseen(name, state, player, random.Random(seed))
    assert game.view(other, player) == game.view(state, player)  # the swap is invisible to the player
    legal = game.legal_actions(state, player)
    assert game.legal_actions(other, player) == legal
    for level in ("easy", "strong"):
        first = choose(game, game.view(state, player), legal, player, level, seed)
        second = choose(game, game.view(other, player), legal, player, level, seed)
        assert first == second, level
    assert game.dump(other) != game.dump(state)  # cards did move


def test_a_computer_player_never_votes_in_lopti():
    game = get_game("lopti")
    players = ["p0", "p1", "p2"]
    state = game.new(players, game.Options(), 3)
    change = {"type": "propose", "change": {"option": "ten_on_seven", "value": True}, "starts": "next_round"}
    state = game.apply(state, "p0", change).state
    legal = game.legal_actions(state, "p1")
    assert any(action["type"] == "vote" for action in legal)
    view = game.view(state, "p1")
    for level in LEVELS:
        for seed in range(5):
            assert choose(game, view, legal, "p1", level, seed)["type"] != "vote"


def test_the_same_seed_gives_the_same_move_and_an_unknown_level_is_refused():
    game, state, player = midgame("kadi", 2)
    legal, view = game.legal_actions(state, player), game.view(state, player)
    assert choose(game, view, legal, player, "strong", 7) == choose(game, view, legal, player, "strong", 7)
    with pytest.raises(ValueError):
        choose(game, view, legal, player, "genius", 7)
