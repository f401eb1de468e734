"""The clock's windows (a Rule Vote, a champion's call): a window keeps its deadline while it is
open, and one the clock just closed starts afresh when the game opens it again."""

from tables.table_core import windows_after


def seconds(kind: str) -> float:
    return {"close_vote": 120, "close_champion": 60}[kind]


def test_an_open_window_keeps_its_first_deadline_across_moves():
    windows = windows_after({}, ["close_vote"], None, 1000, seconds)
    assert windows == {"close_vote": [1120, 120]}
    assert windows_after(windows, ["close_vote"], None, 1050, seconds) == {"close_vote": [1120, 120]}


def test_a_window_the_clock_just_closed_gets_a_fresh_deadline_if_the_game_opens_it_again():
    windows = {"close_champion": [1060, 60]}
    # The clock closed the first stage at its deadline; the game offers the same action for the next.
    assert windows_after(windows, ["close_champion"], "close_champion", 1060, seconds) == {"close_champion": [1120, 60]}


def test_a_window_the_game_no_longer_offers_is_gone():
    assert windows_after({"close_vote": [1120, 120]}, [], None, 1050, seconds) == {}
