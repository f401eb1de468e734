"""Penalty points, the long game, elimination (K7, K8, KAD-A19..A21) and dealer rotation (KAD-A3)."""

from __future__ import annotations

from engine.kadi import GAME
from engine.kadi.scoring import hand_points, match_outcome
from tests.kadi.test_kadi_helpers import DRAW, PLAYERS, TWO, act, event, kinds, new_game, play, refused

NINES = ["9H", "9S", "9D", "9C"]
BARAKA = ["3S", "4S", "6D", "10C", "KS"]  # 27 seed points, 33 pagat
CHAUSIKU = ["3D", "4D", "6C", "10D", "KD"]  # 27 seed points, 33 pagat


def quick_round(players=PLAYERS, **options):
    """amina plays 5H, the others draw (3C, 4C) without fitting, amina goes out with four nines."""
    hands = {"amina": ["5H", *NINES], "baraka": BARAKA, "chausiku": CHAUSIKU}
    state = new_game(players, hands={p: hands[p] for p in players}, start="5C", stock=["3C", "4C"], **options)
    state, _ = act(state, "amina", play("5H"))
    for player in players[1:]:
        state, _ = act(state, player, DRAW)
    state, events = act(state, "amina", play(*NINES))
    return state, events


def test_cards_left_in_hand_count_against_their_holder_with_the_seed_table():
    """K7.1, K7.3, K7.4, KAD-A19: A 1, 3-10 face value, J 10, Q 2, K 4, 2 = 20, joker 50; winner 0."""
    assert [hand_points([card], "seed") for card in ["AS", "3H", "7D", "8C", "10S", "JH", "QS", "KD", "2C", "X"]] == [
        1, 3, 7, 8, 10, 10, 2, 4, 20, 50,
    ]  # fmt: skip
    state, events = quick_round()
    scored = event(events, "round_scored").public
    assert scored["points"] == {"amina": 0, "baraka": 30, "chausiku": 31}
    assert GAME.scores(state) == {"amina": 0, "baraka": 30, "chausiku": 31}
    assert scored["hands"]["baraka"] == [*BARAKA, "3C"]


def test_pagat_scoring_option():
    """KAD-A19 table option scoring = pagat: 8 = 50, pictures 10, others face value, joker still 50."""
    assert [hand_points([card], "pagat") for card in ["AS", "2C", "8C", "JH", "QS", "KD", "X"]] == [
        1,
        2,
        50,
        10,
        10,
        10,
        50,
    ]
    state, _ = quick_round(scoring="pagat")
    assert GAME.scores(state) == {"amina": 0, "baraka": 36, "chausiku": 37}


def test_the_dealer_rotates_clockwise_and_the_next_round_is_dealt():
    """KAD-A3, KAD-A20: below the limit a new round is dealt by the next player clockwise."""
    state, events = quick_round()
    assert kinds(events)[-1] == "dealt"
    assert state.round == 2 and state.dealer == "amina"
    assert GAME.to_act(state) == ["baraka"]
    assert not GAME.is_finished(state)
    assert all(len(state.hands[p]) == 5 for p in PLAYERS)


def test_the_long_game_ends_when_a_total_reaches_the_limit_and_the_lowest_total_wins():
    """K7.2, K8.1, KAD-A20, section 8: a total reaching (not only passing) the limit ends the match."""
    state, events = quick_round(points_limit=30)
    assert GAME.is_finished(state)
    assert GAME.winners(state) == ["amina"]
    assert event(events, "match_over").public["winners"] == ["amina"]
    assert GAME.to_act(state) == []
    assert refused(state, "baraka", DRAW) == "match_over"


def test_elimination_removes_only_players_strictly_over_the_limit():
    """K8.2, KAD-A21, section 8: baraka at exactly 30 stays, chausiku at 31 leaves; the deal skips them."""
    state, events = quick_round(points_limit=30, elimination=True)
    assert event(events, "eliminated").public["players"] == ["chausiku"]
    assert not GAME.is_finished(state)
    assert state.seats == ["amina", "baraka"]
    assert state.dealer == "amina"  # the deal passes to the next remaining player
    hands = GAME.replay_hands(state)
    assert hands["chausiku"] == [] and len(hands["amina"]) == 5
    assert GAME.scores(state)["chausiku"] == 31
    assert refused(state, "chausiku", DRAW) == "eliminated"
    assert GAME.to_act(state) == ["baraka"]


def test_the_last_player_remaining_takes_the_table():
    """K8.2, K8.3, KAD-A21: when only one player is left, they win."""
    state, _ = quick_round(TWO, points_limit=10, elimination=True)
    assert GAME.is_finished(state) and GAME.winners(state) == ["amina"]


def test_if_every_remaining_player_would_go_out_the_lowest_survive_and_ties_share():
    """KAD-A21: everyone over the limit at once: the lowest total survives; still tied, they share."""
    leaving, staying, over = match_outcome({"a": 120, "b": 130, "c": 0}, ["a", "b"], 100, True)
    assert (leaving, staying, over) == (["b"], ["a"], True)
    leaving, staying, over = match_outcome({"a": 120, "b": 120}, ["a", "b"], 100, True)
    assert (leaving, staying, over) == ([], ["a", "b"], True)
    assert match_outcome({"a": 100, "b": 20}, ["a", "b"], 100, True) == ([], ["a", "b"], False)
    assert match_outcome({"a": 100, "b": 20}, ["a", "b"], 100, False) == ([], ["a", "b"], True)
