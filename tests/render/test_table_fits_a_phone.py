"""The group's table fits a phone with the most players each game seats, in both languages, at
every moment of random matches: at most 15 lines and 500 characters. Zeros are hidden, Lopti's
house rules are a count (their texts are in /rules), and the events get the room that is left."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.i18n import translator
from handlers.games.lopti import RENDERER as LOPTI
from handlers.render.hand import player_view
from handlers.render.table import MAX_CHARACTERS, MAX_LINES, shown_length, table_text
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
