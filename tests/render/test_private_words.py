"""A player's own chat speaks to them: their moves in the second person (Euchre), what follows
when they went out (Three Thirteen), how the match ended for them (every game); and the lobby's
lines fit a phone like the table's."""

from __future__ import annotations

from engine.registry import get_game
from handlers.i18n import translator
from handlers.presentation.fit import LINE_WIDTH, phone_width
from handlers.presentation.games import renderer_for
from handlers.presentation.games.euchre3 import RENDERER as EUCHRE
from handlers.presentation.games.three_thirteen import RENDERER as THREE_THIRTEEN
from handlers.presentation.render import table as group
from handlers.presentation.render.hand import render_hand
from tables.models import Seat, TableRow
from tests.render.playouts import play

EN, SW = translator("en"), translator("sw")
NAMES = {"1": "Amina", "2": "Baraka", "3": "Chausiku"}


def test_euchre_tells_the_reader_their_own_moves_as_you():
    passed = {"kind": "passed", "player": "1"}
    assert EUCHRE.private_event_line(passed, EN, NAMES, "1") == "You passed."
    assert EUCHRE.private_event_line(passed, SW, NAMES, "1") == "Umepita."
    assert EUCHRE.private_event_line(passed, EN, NAMES, "2") == "Amina passed."
    scored = {"kind": "round_scored", "maker": "2", "maker_tricks": 3, "euchred": False}
    assert EUCHRE.private_event_line(scored, EN, NAMES, "2") == "You took 3 tricks."
    assert EUCHRE.private_event_line({**scored, "euchred": True}, SW, NAMES, "2") == "Umeshindwa kupata mizunguko 3!"
    won = {"kind": "trick_won", "player": "3", "cards": ["9H", "JH", "AH"]}
    assert EUCHRE.private_event_line(won, SW, NAMES, "3").startswith("Umekula mzunguko")


def test_a_three_thirteen_player_who_went_out_is_told_what_follows():
    view = {"you": "1", "went_out": "1", "final_turns": ["2", "3"]}
    assert THREE_THIRTEEN.prompt(view, [], False, EN).startswith("You went out: the others have one more turn each")
    done = {**view, "you": "2", "final_turns": ["3"]}
    assert THREE_THIRTEEN.prompt(done, [], False, EN).startswith("Your last turn is over")
    assert THREE_THIRTEEN.prompt({**view, "you": "3"}, [], False, EN) == "Wait for your turn."


def test_the_last_private_message_says_how_the_match_ended_for_the_reader():
    # Lopti's session runs until /endsession: random play does not finish it.
    for game in ("pitch", "kadi", "three_thirteen", "euchre3"):
        *_, frame = play(game, 3, 4, max_moves=30000)
        assert frame.game.is_finished(frame.state), game
        winners = frame.game.winners(frame.state)
        for player in frame.table.players:
            text, _markup = render_hand(frame.table, frame.game, frame.state, player, EN)
            if player in winners:
                assert "Match over: you won (" in text, (game, text)
            else:
                assert "Match over: " in text and "you finished with" in text, (game, text)
        sw, _markup = render_hand(frame.table, frame.game, frame.state, frame.table.players[0], SW)
        assert "Mchezo umekwisha: " in sw and ("umeshinda" in sw or "umemaliza na" in sw), sw


def test_the_lobby_lines_fit_a_phone():
    table = TableRow(
        table_id=1,
        chat_id=-5,
        thread_id=0,
        game="kadi",
        status="lobby",
        creator_id=1,
        options={"hand_size": 5, "elimination": True},
        turn_seconds=90,
        seats=[Seat(1, "Amina"), Seat(2, "Baraka")],
        seed="1",
        stand_in=True,
    )
    for _ in (EN, SW):
        text = group.lobby_text(table, get_game("kadi"), _)
        wide = [line for line in text.split("\n") if phone_width(line) > LINE_WIDTH]
        assert not wide, wide
    swahili = group.lobby_text(table, get_game("kadi"), SW)
    assert "Bonyezeni Jiunge: nitafungua gumzo binafsi" in swahili.split("\n")
    assert renderer_for("kadi")  # the lobby's game
