"""What an arena night shows: every word from the catalog, names escaped, a "👀 Watch" link per
running table only when one is given, the podium's medals, and each player's own line."""

from __future__ import annotations

from handlers.i18n import translator
from handlers.presentation.render.arena_nights import (
    joined_text,
    own_line_text,
    podium_text,
    standings_markup,
    standings_text,
)
from tables.arena_nights import CLOSING, OPEN, OVER, RUNNING, ArenaRow, Entrant, Finished, Playing, Standings, scored
from tables.seasons import Seated
from tests.render.test_every_word_goes_through_the_catalog import MARKED, leaks

ENTRANTS = [Entrant(1, "<Zuri>"), Entrant(2, "Baraka"), Entrant(3, "Chausiku", paused=True), Entrant(4, "Daudi")]
MATCHES = [
    Finished(10, 1.0, [Seated(10, 1, 1), Seated(10, 2, 2), Seated(10, 3, 3)]),
    Finished(11, 2.0, [Seated(11, 1, 1), Seated(11, 4, 2)]),
]
NAMES = ["Zuri", "Baraka", "Chausiku", "Daudi"]


def standings(status: str) -> Standings:
    arena = ArenaRow(7, -100, 0, "kadi", {}, 1, 600.0, False, status, "0" * 12, ENTRANTS, 1796680000.0, None, "",
                     False, 0.0)  # fmt: skip
    lines = scored((match.seats for match in MATCHES), arena.names)
    playing = [Playing(12, ["<Zuri>", "Daudi"], [1, 4], "00ff00ff00ff")] if status in (RUNNING, CLOSING) else []
    return Standings(arena, lines, playing, 10, MATCHES, arena.names)


def test_every_arena_text_reads_from_the_catalog():
    for status in (OPEN, RUNNING, CLOSING, OVER):
        shown = standings(status)
        texts = [
            standings_text(shown, MARKED),
            standings_text(shown, MARKED, lambda table: f"https://example.org/watch/{table.table_id}"),
            podium_text(shown, MARKED),
            own_line_text(shown, 2, MARKED),
            joined_text(shown, True, MARKED),
            joined_text(shown, False, MARKED),
        ]
        for text in texts:
            # The clock time is digits, and the watch link's address is no word a player reads.
            assert leaks(text.replace("example.org/watch", ""), NAMES) == [], text


def test_the_standings_show_points_who_plays_who_paused_and_a_watch_link_when_given():
    _ = translator("en")
    text = standings_text(standings(RUNNING), _)
    assert "🏟 <b>Arena: Kadi</b>, 10 min" in text
    # Two wins in a row: the next win scores double (🔥); at a table now (🃏).
    assert "1. &lt;Zuri&gt;: 4 points (2 wins, 2 matches) 🔥 🃏" in text and "<Zuri>" not in text
    assert "⏸" in next(line for line in text.splitlines() if "Chausiku" in line)
    assert "🏁 &lt;Zuri&gt; won (Daudi)" in text, "the last match first"
    assert "Watch" not in text
    watched = standings_text(
        standings(RUNNING),
        _,
        lambda table: f"https://t.me/karata_bot/app?startapp=w{table.table_id}_{table.join_token}",
    )
    assert '<a href="https://t.me/karata_bot/app?startapp=w12_00ff00ff00ff">👀 Watch</a>' in watched
    assert [label.text for row in standings_markup(standings(OPEN), "https://t.me/x", _).inline_keyboard
            for label in row] == ["🏟 Join", "▶️ Start"]  # fmt: skip
    assert standings_markup(standings(OVER), "https://t.me/x", _) is None


def test_the_podium_and_each_players_line():
    _ = translator("en")
    podium = podium_text(standings(OVER), _)
    assert "🥇 1. <b>&lt;Zuri&gt;</b>: 4 points" in podium
    assert "2 matches played." in podium
    # Daudi lost a match of two (no point) and shares third place with Chausiku.
    assert (
        own_line_text(standings(OVER), 4, _)
        == "🏟 The arena is over. You finished 3 of 4 with 0 points (0 won of 1 match)."
    )
    assert own_line_text(standings(OVER), 99, _) is None
    sw = podium_text(standings(OVER), translator("sw"))
    assert sw.startswith("🏆 <b>Uwanja umekwisha: Kadi</b>")
