"""A Rule Vote's result is one whole sentence per outcome, in the reader's language."""

import pytest

from bot.i18n import translator
from handlers.games.lopti import RENDERER

SW, EN = translator("sw"), translator("en")


@pytest.mark.parametrize("result, swahili, english", [
    ("passed", "🗳 Kura imepita (ndiyo 3, hapana 1).", "🗳 The vote passed (3 yes, 1 no)."),
    ("failed", "🗳 Kura imeshindwa (ndiyo 1, hapana 3).", "🗳 The vote failed (1 yes, 3 no)."),
    ("tie", "🗳 Kura imefungana (ndiyo 2, hapana 2): pambano litaamua.", "🗳 The vote is tied (2 yes, 2 no): a duel decides."),
])
def test_each_vote_result_is_a_whole_sentence(result, swahili, english):
    yes, no = {"passed": (3, 1), "failed": (1, 3), "tie": (2, 2)}[result]
    event = {"kind": "vote_closed", "result": result, "yes": yes, "no": no}
    assert RENDERER.event_line(event, SW, {}) == swahili
    assert RENDERER.event_line(event, EN, {}) == english
