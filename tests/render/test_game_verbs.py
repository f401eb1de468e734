"""Each game keeps its own verb for drawing: Lopti «vuta», Kadi and Three Thirteen «chota»."""

from handlers.i18n import translator
from handlers.games.kadi import RENDERER as KADI
from handlers.games.lopti import RENDERER as LOPTI

SW = translator("sw")


def test_a_lopti_player_reads_umevuta_and_a_kadi_player_umechota():
    drew = {"kind": "drew", "player": "1", "count": 1, "cards": ["7H"]}
    assert LOPTI.private_event_line(drew, SW, {}).startswith("Umevuta 7")
    assert KADI.private_event_line(drew, SW, {}).startswith("Umechota 7")
