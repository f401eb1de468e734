"""A Rule Vote's result is one whole sentence per outcome, in the reader's language."""

import pytest

from handlers.i18n import translator
from handlers.presentation.games.lopti import RENDERER

SW, EN = translator("sw"), translator("en")


@pytest.mark.parametrize(
    "result, swahili, english",
    [
        ("passed", "🗳 Kura imepita (ndiyo 3, hapana 1).", "🗳 The vote passed (3 yes, 1 no)."),
        ("failed", "🗳 Kura imeshindwa (ndiyo 1, hapana 3).", "🗳 The vote failed (1 yes, 3 no)."),
        (
            "tie",
            "🗳 Kura imefungana (ndiyo 2, hapana 2): pambano litaamua.",
            "🗳 The vote is tied (2 yes, 2 no): a duel decides.",
        ),
    ],
)
def test_each_vote_result_is_a_whole_sentence(result, swahili, english):
    yes, no = {"passed": (3, 1), "failed": (1, 3), "tie": (2, 2)}[result]
    event = {"kind": "vote_closed", "result": result, "yes": yes, "no": no}
    assert RENDERER.event_line(event, SW, {}) == swahili
    assert RENDERER.event_line(event, EN, {}) == english


NAMES = {"1": "Amina", "2": "Baraka"}
REMOVE = {"remove": 2}
FACE_DOWN = {"option": "face_down_may_take", "value": True}


def test_a_change_reads_as_a_noun_inside_the_host_sentences():
    proposed = RENDERER.event_line({"kind": "proposed", "player": "1", "change": REMOVE}, SW, NAMES)
    rejected = RENDERER.event_line({"kind": "change_rejected", "change": FACE_DOWN}, SW, NAMES)
    assert proposed == "🗳 Amina anapendekeza kuondoa kanuni ya 2."
    assert rejected == (
        "Hakuna mabadiliko: pendekezo la kuwasha kanuni “aliyefikia karata zilizofunikwa "
        "anaweza kuchukua rundo” limekataliwa."
    )
    assert RENDERER.event_line({"kind": "change_rejected", "change": REMOVE}, EN, NAMES) == (
        "No change: remove rule 2 was turned down."
    )


def test_the_poll_asks_about_the_proposal_of_its_proposer():
    view = {"vote": {"id": 1, "proposer": "1", "change": REMOVE, "starts": "now"}}
    _key, question, answers = RENDERER.poll_for(view, SW, NAMES)
    assert question == "Kura ya Kanuni (pendekezo la Amina): kuondoa kanuni ya 2 (sasa hivi)?"
    assert answers == ["Ndiyo", "Hapana"]


def test_a_propose_button_is_a_command_cut_between_words():
    action = {"type": "propose", "change": FACE_DOWN, "starts": "now"}
    _propose, label, _when = RENDERER.action_path(action, {}, SW)
    assert label == "Washa: aliyefikia karata zilizofunikwa…"
    assert len(label) <= 40
    english = RENDERER.action_path({**action, "change": {"option": "ten_on_seven", "value": True}}, {}, EN)
    assert english[1] == "switch on: a 10 may follow a 7"
    assert RENDERER.action_path({**action, "change": REMOVE}, {}, SW)[1] == "Ondoa kanuni ya 2"
