"""Pitch's bid list and hand summary read fully in Swahili (no English words left in them)."""

from handlers.i18n import translator
from handlers.presentation.fit import LINE_WIDTH, phone_width
from handlers.presentation.games.pitch import RENDERER

SW = translator("sw")
NAMES = {"1": "Amina", "2": "Baraka", "3": "Chausiku"}


def test_a_pass_on_a_seat_reads_amepita():
    view = {"phase": "bidding", "dealer": "1", "bids": [{"player": "1", "value": 2}, {"player": "2", "value": None}]}
    assert [RENDERER.seat_detail(view, player, SW) for player in "123"] == ["mgawaji, zabuni 2", "amepita", ""]


def test_the_game_point_is_named_in_swahili():
    event = {
        "kind": "hand_scored",
        "pitcher": "1",
        "bid": 2,
        "made": True,
        "high": {"card": "AH", "by": "1"},
        "game": {"by": ["2"]},
    }
    line = RENDERER.event_line(event, SW, NAMES)
    assert "Jumla Baraka" in line and "Game" not in line


def test_the_four_points_have_four_distinct_words_none_of_them_the_match():
    """«Jeki J♣ Amina», not «J J♣ Amina»; the Game point is «Jumla», since «Mchezo» is the match."""
    event = {
        "kind": "hand_scored",
        "pitcher": "1",
        "bid": 3,
        "made": True,
        "high": {"card": "AC", "by": "1"},
        "low": {"card": "2C", "by": "2"},
        "jack": {"card": "JC", "by": "3"},
        "game": {"by": ["2"]},
    }
    line = RENDERER.event_line(event, SW, NAMES)
    assert "Jeki J♣ Chausiku" in line and "Jumla Baraka" in line and "Mchezo" not in line
    assert " J J♣" not in line


def test_a_seat_shows_its_tricks_while_the_hand_is_played():
    """Dave's two tricks stay on his seat after the «took the trick» lines scroll away."""
    view = {"phase": "playing", "tricks_won": {"1": 0, "2": 2, "3": 1}, "trick": [{"player": "3", "card": "10D"}]}
    en = translator("en")
    assert [RENDERER.seat_detail(view, player, en) for player in "123"] == ["", "2 tricks", "10♦️ · 1 trick"]
    assert RENDERER.seat_detail(view, "2", SW) == "mizunguko 2"


def winning_events(pitcher_wins: bool) -> list[dict]:
    scored = {
        "kind": "hand_scored",
        "hand": 7,
        "pitcher": "1" if pitcher_wins else "2",
        "bid": 2,
        "made": True,
        "change": {"1": 2, "2": 0, "3": 2},
        "scores": {"1": 8, "2": 3, "3": 8},
        "game": {"by": ["1"]},
    }
    return [scored, {"kind": "match_won", "winners": ["1", "3"], "scores": {"1": 8, "2": 3, "3": 8}}]


def test_a_match_end_is_one_sentence_that_names_the_winners_once():
    for language, expected in (
        ("en", "🏆 Amina and Chausiku win with 8 points as the pitchers."),
        ("sw", "🏆 Amina na Chausiku wameshinda kwa pointi 8 wakiwa washindi wa zabuni."),
    ):
        _ = translator(language)
        summary = RENDERER.round_summary(winning_events(True), _, NAMES)
        assert summary[-1] == expected
        assert RENDERER.log_lines(winning_events(True), _, NAMES)[-1] == expected
    best = RENDERER.round_summary(winning_events(False), translator("en"), NAMES)[-1]
    assert best == "🏆 Amina and Chausiku win with 8 points, the best score."


def test_the_hand_results_and_the_points_explained_fit_a_phone():
    """The verdict, the awards and the first hand's explanation: lines of at most 44 columns."""
    event = {
        "kind": "hand_scored",
        "hand": 1,
        "pitcher": "1",
        "bid": 4,
        "made": False,
        "high": {"card": "AC", "by": "1"},
        "low": {"card": "2C", "by": "2"},
        "jack": {"card": "JC", "by": "3"},
        "game": {"by": ["2", "3"]},
        "change": {"1": -4, "2": 2, "3": 2},
        "scores": {"1": -4, "2": 2, "3": 2},
    }
    long_names = {"1": "Wanjiku Wa Kamau Njo", "2": "Baraka Mwangi Otieno", "3": "Chausiku Achieng"}
    for language in ("en", "sw"):
        lines = RENDERER.round_summary([event], translator(language), long_names)
        assert len(lines) >= 8, lines  # heading, verdict, awards, explanation, scores
        wide = [line for line in lines if phone_width(line) > LINE_WIDTH]
        assert not wide, wide
