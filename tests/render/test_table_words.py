"""Words at the table a newcomer needs: why only some cards are offered, cards in one order in the
text and on the buttons, each bid said once, what Three Thirteen's numbers and brackets are, what
Pitch's four points are, and a title icon that is not a card."""

from __future__ import annotations

import re

from handlers.i18n import translator
from handlers.presentation import cards as show
from handlers.presentation.games.pitch import RENDERER as PITCH
from handlers.presentation.games.three_thirteen import RENDERER as THIRTEEN
from handlers.presentation.render.hand import render_hand
from handlers.presentation.render.seat import player_view
from handlers.presentation.render.table import table_text
from tests.render.playouts import play

EN, SW = translator("en"), translator("sw")
NAMES = {"1": "Amina", "2": "Baraka", "3": "Chausiku"}
NOW = 1_000_000.0


def labels(markup) -> list[str]:
    return [button.text for row in markup.inline_keyboard for button in row] if markup else []


def test_pitch_says_why_only_some_cards_are_offered():
    view = {
        "awaiting": "play",
        "phase": "playing",
        "you": "2",
        "pitcher": "1",
        "trump": "S",
        "hand": ["4H", "9H", "KS", "2C"],
        "trick": [{"player": "1", "card": "AH"}],
    }
    legal = [{"type": "play", "card": card} for card in ("4H", "9H", "KS")]
    assert PITCH.prompt(view, legal, True, EN) == "Your turn: you hold ♥️ hearts, so follow suit or play a trump."
    assert PITCH.prompt(view, legal, True, SW) == "Zamu yako: una ♥️ kopa, kwa hiyo fuata aina hiyo au cheza turufu."
    led_trump = {**view, "trick": [{"player": "1", "card": "AS"}], "hand": ["4H", "KS", "2S"]}
    assert "trumps were led" in PITCH.prompt(led_trump, legal[2:] + [{"type": "play", "card": "2S"}], True, EN)
    everything = [{"type": "play", "card": card} for card in view["hand"]]
    assert PITCH.prompt(view, everything, True, EN) == "Your turn: play a card."


def test_pitch_lists_the_hand_and_its_buttons_in_one_order():
    checked = 0
    for frame in play("pitch", 4, 5, max_moves=80):
        table, game, state = frame.table, frame.game, frame.state
        for player in game.to_act(state):
            plays = [action for action in game.legal_actions(state, player) if action["type"] == "play"]
            hand = game.view(state, player)["hand"]
            if len(plays) != len(hand):
                continue
            text, markup = render_hand(table, game, state, player, EN)
            listed = re.search(r"Your hand: (.*)", text).group(1).split(" ")
            shown = [label for label in labels(markup) if label in listed]
            assert shown == listed, (listed, shown)
            checked += 1
    assert checked >= 3


def test_pitch_tells_each_bid_once_on_the_seats():
    frames = (frame for seed in range(20) for frame in play("pitch", 4, seed, max_moves=4))
    for frame in frames:
        table, game, state = frame.table, frame.game, frame.state
        view = player_view(table, game, state, None)
        if view.get("phase") != "bidding" or not view.get("bids"):
            continue
        lines = table_text(table, game, state, EN, view, NOW).split("\n")
        for bid in view["bids"]:
            said = "pass" if bid["value"] is None else f"bid {bid['value']}"
            seat = next(line for line in lines if f"<b>{table.names[bid['player']]}</b>" in line)
            assert said in seat, lines
        events = [line for line in lines if line.startswith("<i>")]
        assert not any(" bid " in line or "passed" in line for line in events) and "Bids:" not in "".join(lines), lines
        return
    raise AssertionError("no bid seen")


def test_pitch_explains_its_four_points_after_the_first_hand_only():
    scored = {
        "kind": "hand_scored",
        "hand": 1,
        "pitcher": "1",
        "bid": 2,
        "made": True,
        "high": {"card": "AH", "by": "1"},
        "low": {"card": "2H", "by": "2"},
        "game": {"by": ["1"]},
        "change": {"1": 3, "2": 1},
        "scores": {"1": 3, "2": 1},
    }
    first = "\n".join(PITCH.round_summary([scored], EN, NAMES))
    assert "<i>High: the highest trump played.</i>\n<i>Low: the lowest trump played.</i>" in first
    assert "Juu: turufu ya juu kabisa iliyochezwa" in "\n".join(PITCH.round_summary([scored], SW, NAMES))
    later = "\n".join(PITCH.round_summary([{**scored, "hand": 2}], EN, NAMES))
    assert "highest trump played" not in later and "High A♥️ Amina" in later


def test_three_thirteen_names_the_melds_and_the_cards_outside_them():
    view = {
        "hand": ["6H", "7H", "8H", "3D"],
        "round": 2,
        "rounds": 11,
        "wild_rank": "4",
        "best_arrangement": {"melds": [["6H", "7H", "8H"]], "deadwood": 3},
    }
    assert THIRTEEN.hand_lines(view, EN, active=False)[-1] == "Cards outside melds: 3 points"
    assert THIRTEEN.hand_lines(view, SW, active=False)[-1] == "Karata zisizopangwa: pointi 3"
    event = {
        "kind": "round_scored",
        "round": 2,
        "points": {"2": 3},
        "totals": {"2": 3},
        "hands": {"2": {"melds": [["6H", "7H", "8H"]], "deadwood_cards": ["3D"]}},
    }
    assert THIRTEEN.round_score_lines(event, EN, NAMES) == ["Baraka: 3 (+3) · melds [6♥️ 7♥️ 8♥️] · outside melds 3♦️"]
    assert THIRTEEN.round_score_lines(event, SW, NAMES) == ["Baraka: 3 (+3) · makundi [6♥️ 7♥️ 8♥️] · zisizopangwa 3♦️"]


def test_a_table_title_is_not_the_joker_nor_a_face_down_card():
    frame = next(play("kadi", 3, 1))
    text = table_text(
        frame.table, frame.game, frame.state, EN, player_view(frame.table, frame.game, frame.state, None), NOW
    )
    title = text.split("\n")[0]
    assert title.startswith("<b>🎲 Kadi</b>") and show.card("X") not in title and show.FACE_DOWN not in title


def test_a_lopti_round_won_without_house_rules_promises_no_rule():
    from handlers.presentation.games.lopti import RENDERER as LOPTI

    won = {"kind": "round_won", "player": "1", "writes_rule": True}
    assert "writes a house rule" in LOPTI.event_line(won, EN, NAMES)
    plain = LOPTI.event_line({**won, "writes_rule": False}, EN, NAMES)
    assert plain == "🏆 Amina wins the round." and "kanuni" not in LOPTI.event_line(
        {**won, "writes_rule": False}, SW, NAMES
    )
