"""The group's table fits a phone with the most players each game seats, in both languages, at
every moment of random matches: at most 15 lines and 500 characters, and every line but the
events' (sentences, which may wrap) at most LINE_WIDTH columns, an emoji counted as two. Zeros
are hidden, Lopti's long house rules are a count (their texts are in /rules), and the events get
the room that is left."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.i18n import translator
from handlers.presentation.fit import LINE_WIDTH, phone_width
from handlers.presentation.games.euchre3 import RENDERER as EUCHRE
from handlers.presentation.games.lopti import RENDERER as LOPTI
from handlers.presentation.render.seat import player_view
from handlers.presentation.render.table import MAX_CHARACTERS, MAX_LINES, shown_length, table_text
from tests.render.playouts import LARGEST, LONG_RULE, new_table, play

NOW = 1_000_000.0


def render(frame, language: str) -> str:
    table, game, state = frame.table, frame.game, frame.state
    table.deadline = NOW + 90
    return table_text(table, game, state, translator(language), player_view(table, game, state, None), NOW)


@pytest.mark.parametrize("game", sorted(LARGEST))
@settings(deadline=None, max_examples=3, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_the_largest_table_fits_a_phone(game, seed):
    for frame in play(game, LARGEST[game], seed, max_moves=300):
        for language in ("en", "sw"):
            text = render(frame, language)
            lines = text.split("\n")
            assert len(lines) <= MAX_LINES, f"{game} ({language}): {len(lines)} lines\n{text}"
            assert shown_length(text) <= MAX_CHARACTERS, f"{game} ({language}): {shown_length(text)} characters\n{text}"
            wide = [line for line in lines if not line.startswith("<i>") and phone_width(line) > LINE_WIDTH]
            assert not wide, f"{game} ({language}): lines wider than a phone: {wide}\n{text}"


def test_zeros_are_not_shown_on_the_table():
    table, game, state = new_table("kadi", 7, 1)
    text = table_text(table, game, state, translator("en"), player_view(table, game, state, None), NOW)
    assert " 0 points" not in text and "Points limit: 100" in text


def test_a_long_house_rule_is_a_count_on_the_table_and_whole_in_rules():
    view = {"phase": "play", "rules": [{"id": 1, "author": "1", "round": 1, "rule": None, "text": LONG_RULE}]}
    centre = "\n".join(LOPTI.centre_lines(view, translator("en"), {"1": "Amina"}))
    assert "1 house rule in force: /rules shows it." in centre and "sing" not in centre
    assert LONG_RULE in LOPTI.rules_lines(view, translator("en"), {"1": "Amina"})[0]


def test_a_long_name_is_cut_on_the_table():
    table, game, state = new_table("kadi", 7, 1)
    table.seats[0].name = "Wanjiku Wa Kamau Njoroge Mwangi Otieno"
    text = table_text(table, game, state, translator("en"), player_view(table, game, state, None), NOW)
    assert "<b>Wanjiku Wa Kamau…</b>" in text and "Njoroge" not in text


def test_a_phone_counts_an_emoji_as_two_columns_and_tags_as_none():
    assert phone_width("<b>Amina</b> &amp;") == 7
    assert phone_width("▫️ 10♦️ K♠ 🎴3") == len("xx 10xx Kx xx3")


def test_the_seat_lines_that_were_too_wide_fit_now():
    """Euchre's seat with every role (80 columns in Swahili before) and Lopti's vote (124)."""
    table, game, state = new_table("euchre3", 3, 1)
    view = {
        **player_view(table, game, state, None),
        "phase": "play",
        "dealer": "1003",
        "maker": "1002",
        "maker_alone": True,
        "lone_defender": "1003",
        "trump": "H",
        "tricks_won": {"1001": 0, "1002": 2, "1003": 1},
        "trick": [{"player": "1003", "card": "QH"}],
    }
    sw = translator("sw")
    seat = EUCHRE.seat_detail(view, "1003", sw)
    assert seat == "Q♥️ · mzunguko 1" and "mgawaji" not in seat
    assert EUCHRE.centre_lines(view, sw, table.names) == [
        "Turufu: ♥️ kopa",
        "Mchaguzi wa turufu: Baraka (peke yake)",
        "Anatetea peke yake: Chausiku",
        "Mzunguko wa 4 kati ya 5",
    ]
    vote = {
        "phase": "play",
        "vote": {
            "id": 1,
            "proposer": "1001",
            "change": {"option": "play_for_places", "value": True},
            "starts": "now",
            "yes": 4,
            "no": 0,
            "needed": 3,
        },
    }
    centre = LOPTI.centre_lines(vote, sw, {"1001": "Amina"})
    assert all(phone_width(line) <= LINE_WIDTH for line in centre), centre
    assert centre[-1] == "Ndiyo 4, hapana 0; ndiyo 3 zinapitisha."


# Options that add lines or words to a table: hiding mode's accusations, Niko Kadi, teams,
# jokers and a tie-break round, a higher target.
WITH_OPTIONS = {
    "kadi": (7, {"hiding": True, "niko_kadi_ahead": True, "elimination": True, "hand_size": 6}),
    "pitch": (4, {"partnerships": True, "smudge": True}),
    "three_thirteen": (4, {"jokers": 4, "tie": "tiebreak_round"}),
    "euchre3": (3, {"target": 15}),
    "lopti": (5, {"play_for_places": True}),
}


@pytest.mark.parametrize("game", sorted(WITH_OPTIONS))
def test_tables_with_options_fit_a_phone_line_by_line(game):
    count, options = WITH_OPTIONS[game]
    for frame in play(game, count, 2, options=options, max_moves=300):
        for language in ("en", "sw"):
            text = render(frame, language)
            wide = [line for line in text.split("\n") if not line.startswith("<i>") and phone_width(line) > LINE_WIDTH]
            assert not wide, f"{game} ({language}): lines wider than a phone: {wide}\n{text}"


@pytest.mark.parametrize("players", [4, 7])
def test_pitch_round_results_fit_a_phone_line_by_line(players):
    """The hand's verdict, who won each point, the first hand's explanation of the four points and
    the scores: each a line of at most LINE_WIDTH columns (they were 65-201 characters). The match's
    end is one sentence, which may wrap as the table's event lines do."""
    from handlers.presentation.render.seat import round_results

    seen = 0
    for frame in play("pitch", players, 4, max_moves=2000):
        if not frame.table.round_events or frame.events != frame.table.round_events["events"]:
            continue
        for language in ("en", "sw"):
            text = round_results(frame.table, translator(language))
            lines = [line for line in text.split("\n") if not line.startswith("🏆")]
            wide = [line for line in lines if phone_width(line) > LINE_WIDTH]
            assert not wide, f"pitch ({language}): {wide}\n{text}"
            seen += 1
    assert seen >= 4
