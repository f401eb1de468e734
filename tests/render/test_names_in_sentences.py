"""Several names in one sentence are joined the reader's way, and words agree with how many."""

from handlers.i18n import translator
from handlers.presentation.games import base
from handlers.presentation.games.kadi import RENDERER as KADI
from handlers.presentation.games.pitch import RENDERER as PITCH
from handlers.presentation.games.three_thirteen import RENDERER as THIRTEEN

SW, EN = translator("sw"), translator("en")
NAMES = {"1": "Amina", "2": "Baraka", "3": "Chausiku", "4": "Dan & <Co>"}


def test_three_names_in_swahili_end_with_na():
    assert base.names_list(["1", "2", "3"], NAMES, SW) == "Amina, Baraka na Chausiku"
    assert base.names_list(["1", "2", "3"], NAMES, EN) == "Amina, Baraka, and Chausiku"


def test_names_are_escaped_before_they_are_joined():
    assert base.names_list(["1", "4"], NAMES, SW) == "Amina na Dan &amp; &lt;Co&gt;"


def test_one_eliminated_player_reads_in_the_singular():
    event = {"kind": "eliminated", "players": ["2"]}
    assert KADI.event_line(event, SW, NAMES) == "Aliyetolewa: Baraka"
    assert KADI.event_line(event, EN, NAMES) == "Eliminated: Baraka"


def test_two_eliminated_players_read_in_the_plural_joined_with_na():
    event = {"kind": "eliminated", "players": ["2", "3"]}
    assert KADI.event_line(event, SW, NAMES) == "Waliotolewa: Baraka na Chausiku"


def test_a_shared_win_names_the_winners_with_na():
    assert base.winners_line(["1", "2"], SW, NAMES) == "🏆 Washindi: Amina na Baraka"
    assert base.winners_line(["1"], SW, NAMES) == "🏆 Mshindi: Amina"


def test_pitch_teams_are_joined_with_na():
    view = {"teams": [["1", "3"], ["2", "4"]]}
    # Too wide for one line of a phone: a line per team.
    assert PITCH.centre_lines(view, SW, NAMES)[:2] == [
        "Timu ya 1: Amina na Chausiku",
        "Timu ya 2: Baraka na Dan &amp; &lt;Co&gt;",
    ]
    short = {"teams": [["1", "2"], ["3", "4"]]}
    assert (
        PITCH.centre_lines(short, SW, {"1": "Ali", "2": "Ben", "3": "Cy", "4": "Dan"})[0]
        == "Timu: Ali na Ben dhidi ya Cy na Dan"
    )


def test_the_last_turns_agree_with_how_many_get_one():
    one = THIRTEEN.centre_lines({"round": 3, "wild_rank": "5", "final_turns": ["2"]}, SW, NAMES)
    two = THIRTEEN.centre_lines({"round": 3, "wild_rank": "5", "final_turns": ["2", "3"]}, SW, NAMES)
    assert one[-1] == "Zamu ya mwisho: Baraka" and two[-1] == "Zamu ya mwisho: Baraka na Chausiku"
    english = [
        THIRTEEN.centre_lines({"round": 3, "wild_rank": "5", "final_turns": players}, EN, NAMES)[-1]
        for players in (["2"], ["2", "3"])
    ]
    assert english == ["Last turn: Baraka", "Last turns: Baraka and Chausiku"]
