"""HTML messages (the table, the hands, round results) always escape names and players' text;
plain-text surfaces (polls, button labels, toasts) never do, so nobody reads «&lt;b&gt;»."""

from __future__ import annotations

import re

import pytest

from handlers.i18n import translator
from handlers.presentation.games import renderer_for
from handlers.presentation.games.kadi import RENDERER as KADI
from handlers.presentation.games.lopti import RENDERER as LOPTI
from handlers.presentation.refusals import refusal_text
from handlers.presentation.render.hand import render_hand
from handlers.presentation.render.seat import player_view, round_results
from handlers.presentation.render.table import table_text
from tests.render.playouts import LARGEST, play

EN = translator("en")
TAGS = re.compile(r"</?(b|i)>")
ENTITY = re.compile(r"&(amp|lt|gt|quot|#\d+);")
TRICKY = ["<b>Amina</b>", "Baraka & Co", "Chausiku <3", "Daudi>", "Eshe&amp;", "F<i>", 'G"ati']


def well_formed(html: str) -> bool:
    """Only our own tags, and every & starts an entity: a player's text can change nothing."""
    text = TAGS.sub("", html)
    return "<" not in text and ">" not in text and "&" not in ENTITY.sub("", text)


@pytest.mark.parametrize("game", sorted(LARGEST))
def test_html_messages_escape_what_players_typed(game):
    for index, frame in enumerate(play(game, min(LARGEST[game], 5), 11, max_moves=200)):
        if index % 4:
            continue
        for seat, tricky in zip(frame.table.seats, TRICKY):
            seat.name = tricky
        table, state = frame.table, frame.state
        for language in ("en", "sw"):
            _ = translator(language)
            shown = [table_text(table, frame.game, state, _, player_view(table, frame.game, state, None), 0.0)]
            shown += [render_hand(table, frame.game, state, player, _)[0] for player in table.players]
            shown.append(round_results(table, _) or "")
            for html in shown:
                assert well_formed(html), html


def test_a_poll_and_a_button_show_names_and_rules_as_typed():
    change = {"restore": [{"author": "1", "rule": {"text": "Say <b>jambo</b> & play"}}]}
    view = {"vote": {"id": 1, "proposer": "1", "change": change, "starts": "now"}}
    _key, question, _answers = LOPTI.poll_for(view, EN, {"1": "Amina & <Co>"})
    assert "Amina & <Co>" in question and "Say <b>jambo</b> & play" in question and "&lt;" not in question
    button = LOPTI.change_button({"restore": [{"author": "1", "rule": {"text": "<&>"}}]}, EN)
    assert button.endswith(": <&>")
    labels = [
        label
        for label, _key in KADI.table_buttons(
            {"players": ["1"], "seats": ["1"], "table_options": {"hiding": True}}, {"1": "Amina & <Co>"}, EN
        )
    ]
    assert labels == ["⚖️ Amina & <Co>"]


def test_the_same_rule_is_escaped_on_the_table():
    change = {"restore": [{"author": "1", "rule": {"text": "Say <b>jambo</b> & play"}}]}
    view = {
        "phase": "play",
        "vote": {"id": 1, "proposer": "1", "change": change, "starts": "now", "yes": 0, "no": 0, "needed": 2},
    }
    centre = "\n".join(LOPTI.centre_lines(view, EN, {"1": "Amina"}))
    assert "Say &lt;b&gt;jambo&lt;/b&gt; &amp; play" in centre and "<b>" not in centre


def test_a_toast_shows_values_as_typed():
    assert refusal_text("bad_option", "", {"option": "<x>&"}, EN).count("<x>&") == 1


def test_the_challenge_prompt_escapes_the_name():
    view = {"phase": "challenge", "provisional_winner": "1", "names": {"1": "<b>Amina</b>"}}
    prompt = renderer_for("kadi").prompt(view, [{"type": "accept"}], True, EN)
    assert "&lt;b&gt;Amina&lt;/b&gt; says they are out" in prompt
