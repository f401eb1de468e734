"""The app's choices are the chat keyboard's buttons, drawn from one model of the seat's screen,
and a snapshot stays small at every prompt of every game (Euchre's five to keep out of ten
included): the app gets the open node's choices, and each tap that opens a branch brings the next.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.registry import available_games
from handlers.i18n import translator
from handlers.presentation import cards as show
from handlers.presentation.callback_data import TreeNode
from handlers.presentation.render.hand import MARKED, hand_markup
from handlers.presentation.render.seat import seen_by
from handlers.webapp.snapshot import snapshot
from tests.render.playouts import LARGEST, play

EN = translator("en")
# The most a snapshot may weigh (docs/MINIAPP.md): every change at a table goes to each open page.
MOST_BYTES = 16 * 1024


def walk(frame, player, rng):
    """The snapshots of `player` at the top of their keyboard and down one random path of taps
    that open (marks, branches), as the app would be answered."""
    table, game, state = frame.table, frame.game, frame.state
    seen = seen_by(table, game, state, player, EN)
    at = None
    for _step in range(12):
        snap = snapshot(table, game, state, player, EN, 0.0, at)
        yield seen, snap
        deeper = [
            key for key in snap["choices"]["keys"] if key["opens"] and key["kind"] != "back" and not key["marked"]
        ]
        if not deeper:
            return
        at = (seen.keyboard, rng.choice(deeper)["node"])


@pytest.mark.parametrize("game_name", available_games())
def test_the_apps_choices_are_the_chat_keyboards_buttons(game_name):
    rng = random.Random(5)
    for frame in play(game_name, 3, 5, max_moves=150):
        for player in frame.table.players:
            for seen, snap in walk(frame, player, rng):
                node = seen.tree.node(snap["choices"]["at"])
                markup = hand_markup(frame.table, seen, node)
                chat = sorted(
                    (button.text, TreeNode.parse(button.callback_data).node)
                    for row in (markup.inline_keyboard if markup else ())
                    for button in row
                )
                app = sorted(
                    (f"{MARKED} {key['label']}" if key["marked"] else key["label"], key["node"])
                    for key in snap["choices"]["keys"]
                )
                assert app == chat, (game_name, app, chat)
                for key in snap["choices"]["keys"]:
                    if key["kind"] == "card":  # the card drawn is the card the button names
                        assert key["card"] and show.card(key["card"]) == key["label"], (game_name, key)
                    if key["kind"] == "cards":
                        assert show.cards(key["cards"]) in key["label"], (game_name, key)


def test_lopti_ready_is_a_move_not_a_marked_card():
    frame = next(iter(play("lopti", 3, 2)))
    player = frame.table.players[0]
    snap = snapshot(frame.table, frame.game, frame.state, player, EN, 0.0)
    ready = next(key for key in snap["choices"]["keys"] if "Ready" in key["label"])
    assert ready["kind"] == "move" and not ready["marked"] and ready["card"] is None, ready


@pytest.mark.parametrize("game_name", available_games())
def test_every_snapshot_stays_under_16_kb(game_name):
    rng = random.Random(9)
    largest, prompts = 0, set()
    for seed in (1, 2):
        for frame in play(game_name, LARGEST[game_name], seed, max_moves=300):
            for player in frame.game.to_act(frame.state):
                for _seen, snap in walk(frame, player, rng):
                    largest = max(largest, len(json.dumps(snap, ensure_ascii=False).encode()))
                    prompts.add(snap["prompt"])
    assert largest < MOST_BYTES, (game_name, largest)
    if game_name == "euchre3":
        assert any(prompt.startswith("Tap the five cards you keep") for prompt in prompts), (
            "the keep-five prompt was reached"
        )
