"""Pitch's bid list and hand summary read fully in Swahili (no English words left in them)."""

from handlers.i18n import translator
from handlers.games.pitch import RENDERER

SW = translator("sw")
NAMES = {"1": "Amina", "2": "Baraka", "3": "Chausiku"}


def test_a_pass_on_a_seat_reads_amepita():
    view = {"phase": "bidding", "dealer": "1", "bids": [{"player": "1", "value": 2}, {"player": "2", "value": None}]}
    assert [RENDERER.seat_detail(view, player, SW) for player in "123"] == ["mgawaji, zabuni 2", "amepita", ""]


def test_the_game_point_is_named_in_swahili():
    event = {"kind": "hand_scored", "pitcher": "1", "bid": 2, "made": True,
             "high": {"card": "AH", "by": "1"}, "game": {"by": ["2"]}}
    line = RENDERER.event_line(event, SW, NAMES)
    assert "Mchezo Baraka" in line and "Game" not in line
