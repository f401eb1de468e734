"""Computer players read as such everywhere: 🤖 names in the lobby, at the table and in the log,
the lobby's buttons to add and remove them, and the closed hand of a player who left."""

from __future__ import annotations

from engine.registry import get_game
from handlers.i18n import translator
from handlers.presentation.games import base
from handlers.presentation.render import table as group
from tables.models import Seat, TableRow, computer_seat

EN, SW = translator("en"), translator("sw")


def lobby(seats, level="strong") -> TableRow:
    return TableRow(
        table_id=1,
        chat_id=-5,
        thread_id=0,
        game="pitch",
        status="lobby",
        creator_id=1,
        options={},
        turn_seconds=90,
        seats=seats,
        seed="1",
        level=level,
    )


def test_computer_players_get_swahili_names_with_a_robot_and_ids_of_their_level():
    people = [Seat(1, "Amina")]
    juma = computer_seat("strong", people)
    amani = computer_seat("strong", [*people, juma])
    easy = computer_seat("easy", people)
    assert (juma.name, amani.name) == ("🤖 Juma", "🤖 Amani") and juma.is_computer
    assert juma.user_id != easy.user_id and easy.user_id < 0


def test_the_lobby_lists_computers_and_offers_to_add_and_remove_them():
    table = lobby([Seat(1, "Amina"), computer_seat("easy", [])], level="easy")
    text = group.lobby_text(table, get_game("pitch"), EN)
    assert "• 🤖 Juma" in text and "Computer players: easy" in text
    labels = [
        button.text for row in group.lobby_markup(table, EN, "https://t.me/x", 7).inline_keyboard for button in row
    ]
    assert "🤖 Add a computer player" in labels and "➖ Remove a computer player" in labels
    full = group.lobby_markup(table, SW, "https://t.me/x", 2).inline_keyboard
    assert not any(button.text.startswith("🤖") for row in full for button in row), "a full table offers none"


def test_a_leaver_and_the_computer_in_their_seat_are_named_in_the_log_escaped():
    event = {"kind": "replaced", "player": "1", "left": "Dan & <Co>", "by": "🤖 Juma"}
    assert base.GameRenderer().log_lines([event], EN, {}) == [
        "🚪 Dan &amp; &lt;Co&gt; left the game; 🤖 Juma plays on in that seat."
    ]
    assert "🤖 Juma anaendelea kucheza" in base.GameRenderer().log_lines([event], SW, {})[0]


def test_the_hand_of_a_player_who_left_says_who_plays_their_seat():
    table = lobby([Seat(2, "Baraka"), computer_seat("strong", [], plays_for="1")])
    assert table.leavers == [1] and table.computers == ["1"]
    assert "You left this table; 🤖 Juma plays your seat." in group.left_text(table, 1, EN)
