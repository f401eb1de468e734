"""Every game's snapshot for every seat, through a stretch of random play: it is JSON, it shows
the seat's own hand and board, its choices' cards carry codes, and no other seat's hidden card is in it."""

from __future__ import annotations

import json
import random

import pytest

from engine.ai import choose
from engine.registry import available_games, get_game
from handlers.i18n import translator
from handlers.presentation import cards as show
from handlers.presentation.games import renderer_for
from handlers.presentation.render.seat import player_view
from handlers.webapp.snapshot import snapshot
from tables.models import FINISHED, PLAYING, Seat, TableRow


def random_play(game_name, players, seed, steps, level="random"):
    """A new table of `game_name` for `players`, then up to `steps` moves until the match ends
    (random ones, or a computer player's of `level`): the table and the state at each position
    (the table's version following)."""
    game = get_game(game_name)
    state = game.new(players, game.Options(), "5", None, [])
    table = TableRow(1, -5, 0, game_name, PLAYING, 11, {}, 0, [Seat(int(p), f"P{p}") for p in players], "5", version=1)
    rng = random.Random(seed)
    for _step in range(steps):
        yield table, state
        acting = game.to_act(state)
        if not acting or game.is_finished(state):
            break
        legal = game.legal_actions(state, acting[0])
        view = game.view(state, acting[0])
        move = rng.choice(legal) if level == "random" else choose(game, view, legal, acting[0], level, table.version)
        state = game.advance(state, acting[0], move).state
        table.version += 1


@pytest.mark.parametrize("game_name", available_games())
def test_each_seat_sees_its_board_and_nothing_hidden_of_the_others(game_name):
    game = get_game(game_name)
    players = ["11", "12", "13"]
    for table, state in random_play(game_name, players, 3, 25):
        for player in players:
            snap = snapshot(table, game, state, player, translator("sw"), 0.0)
            text = json.dumps(snap, ensure_ascii=False)
            assert snap["zones"], f"{game_name}: the centre of the table is drawn"
            own = game.view(state, player).get("hand") or []
            assert sorted(snap["hand"]) == sorted(own)
            public = json.dumps(game.view(state, player))
            for other, cards in game.replay_hands(state).items():
                if other != player and isinstance(cards, list):
                    hidden = [card for card in cards if isinstance(card, str) and card not in public]
                    assert not any(f'"{card}"' in text for card in hidden), (game_name, other, hidden)
            for key in snap["choices"]["keys"]:
                if key["kind"] == "card":
                    assert key["card"] in own or key["card"] in public, (game_name, key)
                if key["kind"] == "cards":
                    assert key["cards"] and all(card in own for card in key["cards"]), (game_name, key)


@pytest.mark.parametrize("game_name", available_games())
def test_a_seats_note_says_only_what_the_seat_does_not_draw(game_name):
    """The page draws each seat's card count and its face-up and face-down cards, and the trick's
    cards by who played them: the seat's note must not repeat them ("5 cards" beside the count),
    and keeps what is drawn nowhere else (who is out, Kadi Moja...). The dealer is marked exactly
    when the group's table marks it (Euchre and Pitch while bidding, Three Thirteen always)."""
    game = get_game(game_name)
    renderer = renderer_for(game_name)
    players = ["11", "12", "13"]
    dealers = 0
    for table, state in random_play(game_name, players, 5, 60):
        public = player_view(table, game, state, None)
        for language in ("en", "sw"):
            _ = translator(language)
            snap = snapshot(table, game, state, players[0], _, 0.0)
            for seat, player in zip(snap["seats"], players):
                in_chat = _("dealer") in renderer.seat_detail(public, player, _)
                assert (_("dealer") in (seat["note"] or "")) == in_chat, (game_name, language, seat["note"])
                dealers += in_chat
            drawn = [show.card(card) for zone in snap["zones"] if zone["id"] == "trick" for card in zone["cards"]]
            for seat in snap["seats"]:
                note = seat["note"] or ""
                if seat["cards"] is not None:
                    count = _.plural("{count} card", "{count} cards", seat["cards"])
                    assert count not in note, (game_name, language, note)
                for card in seat["face_up"]:
                    assert show.card(card) not in note, (game_name, note, seat["face_up"])
                if seat["face_down"]:
                    assert show.FACE_DOWN not in note, (game_name, note)
                assert not any(card in note for card in drawn), (game_name, note, drawn)
    if game_name in ("euchre3", "pitch", "three_thirteen"):
        assert dealers, game_name


@pytest.mark.parametrize("game_name", available_games())
def test_a_round_that_ends_brings_its_results_to_the_page_in_plain_text(game_name):
    """The group's round results (each player's points) reach the app too: plain lines naming
    every player, marked with the move that ended the round; a move that ends none brings none."""
    game = get_game(game_name)
    players = ["11", "12", "13"]
    names = ["Amina", "Baraka & Co", "Chausiku"]
    state = game.new(players, game.Options(), "5", None, [])
    seats = [Seat(int(player), name) for player, name in zip(players, names)]
    table = TableRow(1, -5, 0, game_name, PLAYING, 11, {}, 0, seats, "5", version=1)
    rng = random.Random(7)
    shown = {}
    for step in range(5000):
        acting = game.to_act(state)
        before = game.round_number(state)
        applied = game.advance(state, acting[0], rng.choice(game.legal_actions(state, acting[0])))
        state = applied.state
        table.version += 1
        # What the table service keeps of each move (tables/playing.py, _commit).
        events = [event.view(None) for event in applied.events]
        table.round_events = {"round": before, "version": table.version, "events": events}
        for language in ("en", "sw"):
            snap = snapshot(table, game, state, players[0], translator(language), 0.0)
            assert step > 0 or snap["results"] is None, "the first move ends no round"
            if snap["results"] is not None:
                shown[language] = snap["results"]
                assert snap["results"]["edition"] == table.version
        if game.is_finished(state) or game.round_number(state) != before:
            break
    else:
        raise AssertionError("no round ended")
    assert set(shown) == {"en", "sw"}, f"{game_name}: the round's results reach the page"
    assert shown["en"]["lines"][0].startswith("Round 1 results")
    assert shown["sw"]["lines"][0].startswith("Matokeo ya raundi")
    for results in shown.values():
        text = "\n".join(results["lines"])
        assert all(name in text for name in names), (game_name, text)
        assert "<" not in text and "&amp;" not in text, (game_name, text)


def test_loptis_vote_button_stays_in_the_group():
    """The group table's 🗳 Vote opens the presser's proposals in chat: the app does not offer it
    (its hand's own 🗳 Propose a change proposes; tests/webapp/browser/test_page_drawing.py)."""
    game = get_game("lopti")
    table, state = next(random_play("lopti", ["11", "12"], 1, 1))
    public = player_view(table, game, state, None)
    assert renderer_for("lopti").table_buttons(public, table.names, translator("en")), "the group has it"
    assert snapshot(table, game, state, "11", translator("en"), 0.0)["buttons"] == []


@pytest.mark.parametrize("game_name", available_games())
def test_at_the_matchs_end_the_page_is_told_who_won_and_everyones_total(game_name):
    game = get_game(game_name)
    players = ["11", "12", "13"]
    for table, state in random_play(game_name, players, 4, 3000, level="easy"):
        if not game.is_finished(state):
            if table.version % 50 == 1:
                assert snapshot(table, game, state, players[0], translator("en"), 0.0)["standings"] is None
            continue
        snap = snapshot(table, game, state, players[0], translator("en"), 0.0)
        winners = [f"P{player}" for player in game.winners(state)]
        assert snap["standings"][0].startswith("🏆 Winner") and all(name in snap["standings"][0] for name in winners)
        totals = {line.split(": ")[0].removeprefix("🏆 "): int(line.split(": ")[1]) for line in snap["standings"][1:]}
        assert totals == {f"P{player}": score for player, score in game.scores(state).items()}
        return
    # Lopti's session has no end of its own: it ends with /endsession, which the standings show.
    assert game_name == "lopti"
    table.status = FINISHED
    snap = snapshot(table, game, state, players[0], translator("en"), 0.0)
    assert {line.split(": ")[0] for line in snap["standings"]} == {"P11", "P12", "P13"}
