"""What /top, /season and a season's end say: every word from the catalog (the month's name from
Babel, in the reader's language), players' names escaped, a private player as "a player"."""

from __future__ import annotations

from datetime import datetime, timezone

from handlers.i18n import translator
from handlers.presentation.render.seasons import (
    Champions,
    Placing,
    last_day,
    length_chosen_text,
    season_board_text,
    season_end_text,
    season_name,
    season_text,
)
from tables.seasons import LENGTHS, MONTH, WEEK, Line, season_at
from tests.render.test_every_word_goes_through_the_catalog import MARKED, leaks

DECEMBER = season_at(datetime(2026, 12, 15, tzinfo=timezone.utc).timestamp(), MONTH)
WEEK_OF_7TH = season_at(datetime(2026, 12, 9, tzinfo=timezone.utc).timestamp(), WEEK)
LINES = [Line(1, 4, 2, 2, place=1), Line(2, 2, 1, 3, place=2), Line(3, 0, 0, 1, place=3)]
NAMES = {1: "<Zuri>", 2: None, 3: "Baraka"}  # 2 keeps their record private


def test_every_season_text_reads_from_the_catalog():
    for season in (DECEMBER, WEEK_OF_7TH):
        # The month's name and dates are Babel's, in the reader's language: like a player's name here.
        babel = [season_name(season, MARKED), last_day(season, MARKED), "Dec", "December"]
        texts = [
            season_board_text("kadi", season, LINES, NAMES, ["kadi", "pitch"], MARKED),
            season_board_text("pitch", season, [], NAMES, ["kadi"], MARKED),
            season_text(season, "Baraka", [Placing("kadi", LINES[2], 3)], MARKED),
            season_text(season, "Baraka", [], MARKED),
            season_end_text(season, [Champions("kadi", [1, 2], 4), Champions("pitch", [3], 2)], NAMES, MARKED),
        ]
        for text in texts:
            assert leaks(text, ["Zuri", "Baraka", *babel]) == [], text
    for text in [season_text(None, "Baraka", [], MARKED), *(length_chosen_text(length, MARKED) for length in LENGTHS)]:
        assert leaks(text, []) == [], text


def test_names_are_escaped_and_a_private_player_is_a_player():
    _ = translator("en")
    board = season_board_text("kadi", DECEMBER, LINES, NAMES, ["kadi"], _)
    assert "1. &lt;Zuri&gt;: 4 points (2 wins, 2 matches)" in board and "<Zuri>" not in board
    assert "2. a player: 2 points (1 win, 3 matches)" in board
    assert board.startswith("🏆 <b>Kadi</b> this season (December 2026, until 31 Dec 2026)")
    ended = season_end_text(DECEMBER, [Champions("kadi", [1, 2], 4)], NAMES, _)
    assert "🥇 Kadi: &lt;Zuri&gt; and a player (4 points)" in ended


def test_in_swahili():
    _ = translator("sw")
    ended = season_end_text(DECEMBER, [Champions("kadi", [2], 4)], NAMES, _)
    assert ended.startswith("🏁 <b>Msimu wa Desemba 2026 umekwisha.</b>")
    assert "Mabingwa:" in ended and "mchezaji fulani (pointi 4)" in ended
    assert season_name(WEEK_OF_7TH, _) == "wiki ya 7 Des 2026"
    assert "nafasi ya 3 kati ya 3, pointi 0" in season_text(DECEMBER, "Baraka", [Placing("kadi", LINES[2], 3)], _)
