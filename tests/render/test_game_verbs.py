"""One verb for drawing in every game: «chota» (docs/GLOSSARY.md)."""

from handlers.i18n import translator
from handlers.presentation.games.kadi import RENDERER as KADI
from handlers.presentation.games.lopti import RENDERER as LOPTI

SW = translator("sw")


def test_a_lopti_player_and_a_kadi_player_both_read_umechota():
    drew = {"kind": "drew", "player": "1", "count": 1, "cards": ["7H"]}
    assert LOPTI.private_event_line(drew, SW, {}).startswith("Umechota 7")
    assert KADI.private_event_line(drew, SW, {}).startswith("Umechota 7")
