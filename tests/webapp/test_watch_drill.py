"""The no-leak drill: whole matches of every game (moves as people in a hurry make them, seeded;
Lopti, a session that never ends by itself, for its first rounds), and at every version the frame a watcher is sent (the same text its GET answers and its socket carries:
handlers/webapp/watch.py) holds none of the cards the engine's state keeps out of sight."""

from __future__ import annotations

import json
import random

import pytest

from engine.registry import available_games, get_game
from handlers.i18n import translator
from handlers.webapp.watch import WatchScreens
from tables.models import PLAYING, Loaded, Seat, TableRow
from tests.e2e.helpers import sensible_player
from tests.webapp.watching import hidden_cards, leaked

PLAYERS = ["11", "12", "13"]
# Short matches where the game has a length; the rest play their whole match.
SHORT = {"kadi": {"points_limit": 1, "hand_size": 5}, "pitch": {"target": 7}, "euchre3": {"target": 5}}
LOPTI_ROUNDS = 4


def over(game, state) -> bool:
    return game.is_finished(state) or (game.name == "lopti" and game.round_number(state) > LOPTI_ROUNDS)


def whole_match(game_name, seed):
    """A table of `game_name` played to its end: the table and the state at every version."""
    game = get_game(game_name)
    state = game.new(PLAYERS, game.Options(**SHORT.get(game_name, {})), str(seed), None, [])
    table = TableRow(1, -5, 0, game_name, PLAYING, 11, {}, 0, [Seat(int(p), f"P{p}") for p in PLAYERS], "5")
    table.version = 1
    table.join_token = "abc123"
    player_of = sensible_player(random.Random(seed))
    for _move in range(20000):
        yield table, game, state
        if over(game, state):
            return
        player = next(player for player in game.to_act(state) if game.legal_actions(state, player))
        action = player_of(player, game.legal_actions(state, player), Loaded(table, game, state))
        state = game.advance(state, player, action).state
        table.version += 1
        table.revision += 1
    raise AssertionError(f"{game_name}: the match did not end")


@pytest.mark.long
@pytest.mark.parametrize("game_name", available_games())
def test_no_hidden_card_reaches_a_watcher_in_a_whole_match(game_name):
    screens = WatchScreens(lambda: 0.0)
    versions = 0
    for language in ("sw", "en"):
        for table, game, state in whole_match(game_name, 5):
            frame = screens.text(Loaded(table, game, state), translator(language))
            snap = json.loads(frame)
            assert snap["watching"] and snap["hand"] == [] and snap["choices"]["keys"] == []
            assert snap["buttons"] == [] and not any(seat["you"] for seat in snap["seats"])
            assert not leaked(frame, hidden_cards(game, state)), (game_name, table.version)
            versions += 1
    assert over(game, state) and versions > 20


def test_watchers_share_one_screen_per_table_change_and_language():
    """A hundred watchers of a table hold one text per language: each is sent the very same one,
    built again only when the table changes."""
    screens = WatchScreens(lambda: 0.0)
    positions = whole_match("kadi", 5)
    table, game, state = next(positions)
    sw, en = translator("sw"), translator("en")
    first = screens.text(Loaded(table, game, state), sw)
    assert all(screens.text(Loaded(table, game, state), sw) is first for _watcher in range(100))
    english = screens.text(Loaded(table, game, state), en)
    assert english is not first and json.loads(english)["language"] == "en"
    table, game, state = next(positions)
    moved = screens.text(Loaded(table, game, state), sw)
    assert moved is not first and json.loads(moved)["version"] == json.loads(first)["version"] + 1
