"""Every fact a seat's line carried before the table was fitted to 44 columns is still on the
table: on the seat's line, or named in the centre. Played through random matches of every game,
in both languages, with the most players each game seats.

Facts the fitting dropped on purpose, because the table shows them another way: the card count
of a trick game's seat (every hand holds the deal less the tricks played, and the trick's number
is in the centre), Kadi's dealer (the first ▶️ shows where play began), Lopti's ✅ for a ready
seat (a ready seat is the one the table no longer waits for: ▫️)."""

from __future__ import annotations

import pytest

from handlers.i18n import translator
from handlers.presentation import cards as show
from handlers.presentation.render.seat import player_view
from handlers.presentation.render.table import table_text
from tests.render.playouts import LARGEST, play

NOW = 1_000_000.0
WORDS = {
    "en": {"trick": ("1 trick", "{n} tricks"), "dealer": "dealer", "up": "up "},
    "sw": {"trick": ("mzunguko 1", "mizunguko {n}"), "dealer": "mgawaji", "up": "wazi "},
}


def tricks(count: int, language: str) -> str:
    one, many = WORDS[language]["trick"]
    return one if count == 1 else many.format(n=count)


def seat_lines(frame, language: str) -> tuple[dict[str, str], str, dict]:
    table, game, state = frame.table, frame.game, frame.state
    view = player_view(table, game, state, None)
    text = table_text(table, game, state, translator(language), view, NOW)
    lines = text.split("\n")
    seats = {seat.player: next(line for line in lines if f"<b>{seat.name}</b>" in line) for seat in table.seats}
    centre = "\n".join(line for line in lines if not line.startswith("<i>") and line not in seats.values())
    return seats, centre, view


def facts(game: str, view: dict, player: str, language: str) -> list[str]:
    """What the seat line of `player` must say now."""
    words = WORDS[language]
    found = []
    if game in ("pitch", "euchre3"):
        won = (view.get("tricks_won") or {}).get(player)
        if won and view.get("phase") in ("playing", "play"):
            found.append(tricks(won, language))
        played = next((play["card"] for play in view.get("trick") or [] if play["player"] == player), None)
        if played:
            found.append(show.card(played))
        if player == view.get("dealer") and view.get("phase") in ("bidding", "bid1", "pickup", "bid2"):
            found.append(words["dealer"])
    if game == "kadi" and player not in (view.get("eliminated") or []):
        count = (view.get("counts") or {}).get(player)
        if count is not None and count != 1:
            found.append(f"{count}")
    if game == "lopti":
        seat = (view.get("seats") or {}).get(player, {})
        if not seat.get("out"):
            found.append(f"{show.IN_HAND}{seat.get('hand_count', 0)}")
            if seat.get("face_up"):
                found.append(words["up"] + show.cards(seat["face_up"]))
            elif seat.get("face_down"):
                found.append(f"{show.FACE_DOWN}{len(seat['face_down'])}")
    if game == "three_thirteen" and player in (view.get("seated") or []):
        count = (view.get("hand_counts") or {}).get(player)
        if count:
            found.append(f"{count}")
        if player == view.get("dealer"):
            found.append(words["dealer"])
        if player == view.get("went_out"):
            found.append("🏁")
    return found


def centre_facts(game: str, view: dict, names: dict) -> list[str]:
    """The roles named in the centre: Pitch's pitcher, Euchre's maker and lone defender."""
    roles = {"pitch": ("pitcher",), "euchre3": ("maker", "lone_defender")}.get(game, ())
    return [names[view[role]] for role in roles if view.get(role) and view.get("phase") in ("playing", "play")]


@pytest.mark.parametrize("game", sorted(LARGEST))
def test_every_fact_of_a_seat_is_still_on_the_table(game):
    checked = 0
    for frame in play(game, LARGEST[game], 3, max_moves=250):
        if frame.game.is_finished(frame.state):
            break
        for language in ("en", "sw"):
            seats, centre, view = seat_lines(frame, language)
            for player, line in seats.items():
                missing = [fact for fact in facts(game, view, player, language) if fact not in line]
                assert not missing, f"{game} ({language}): {missing} not on {line!r}"
                checked += 1
            for named in centre_facts(game, view, frame.table.names):
                assert named in centre, f"{game} ({language}): {named} not in the centre:\n{centre}"
    assert checked > 100


def test_pitch_tricks_stay_on_the_seats_after_their_lines_scroll_away():
    """The issue's table: Dave's two tricks and Carol's one, long after the «took the trick» lines."""
    for frame in play("pitch", 4, 5, max_moves=400):
        view = player_view(frame.table, frame.game, frame.state, None)
        won = view.get("tricks_won") or {}
        if view.get("phase") == "playing" and sum(won.values()) >= 4:
            seats, _centre, _view = seat_lines(frame, "en")
            for player, count in won.items():
                assert (tricks(count, "en") in seats[player]) == bool(count), seats[player]
            return
    raise AssertionError("no hand reached its fifth trick")
