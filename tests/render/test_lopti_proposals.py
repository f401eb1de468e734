"""Lopti's proposals as the renderer and the builder offer them: a retracted poll answer, the
table's 🗳 Vote, amending a rule in the builder from the rule as it stands."""

import pytest

from engine.lopti import GAME
from handlers.chat.rule_builder import DraftCode, builder_message, replay, steps_of
from handlers.i18n import translator
from handlers.presentation.games import renderer_for
from handlers.presentation.games.house_rules import AMEND
from handlers.presentation.games.lopti import RENDERER

EN, SW = translator("en"), translator("sw")
EIGHTS = {
    "when": "after",
    "event": "play",
    "if": {"ranks": ["8"]},
    "do": [{"effect": "give", "who": "actor", "to": "next", "n": 2}],
}


def view(**changes):
    state = GAME.new(["1", "2", "3"], GAME.Options(), 1)
    return {**GAME.view(state, None), **changes}


def test_a_retracted_poll_answer_withdraws_the_ballot_and_an_answer_is_a_ballot():
    assert RENDERER.poll_action("vote:1", [], view()) == {"type": "withdraw_vote"}
    assert RENDERER.poll_action("vote:1", [1], view()) == {"type": "vote", "yes": False}
    assert RENDERER.poll_action("other:1", [], view()) is None


def state_with(**changes):
    state = GAME.new(["1", "2", "3"], GAME.Options(), 1)
    for name, value in changes.items():
        setattr(state, name, value)
    return state


def opened_vote():
    change = {"option": "ten_on_seven", "value": not GAME.Options().ten_on_seven}
    return GAME.apply(state_with(), "1", {"type": "propose", "change": change, "starts": "now"}).state


STATES = {
    "fresh": state_with,
    "vote used": lambda: state_with(vote_used=True),
    "vote open": opened_vote,
    "authoring": lambda: state_with(phase="authoring", round_winner=0),
}


@pytest.mark.parametrize("name", STATES)
def test_the_vote_button_and_proposals_follow_the_engines_judgement(name):
    state = STATES[name]()
    change = {"option": "ten_on_seven", "value": not state.options["ten_on_seven"]}
    applied = GAME.apply(state, "2", {"type": "propose", "change": change, "starts": "now"})
    refusal = RENDERER.proposal_refusal(GAME.view(state, "2"), "2")
    assert refusal == (None if applied.ok else applied.code)
    assert (RENDERER.table_buttons(GAME.view(state, None), {}, EN) == [("🗳 Vote", "propose")]) is applied.ok
    assert bool(RENDERER.extra_actions(GAME.view(state, "2"), "2")) is applied.ok


def test_proposals_are_refused_to_players_not_in_the_session_and_other_games_have_none():
    assert RENDERER.proposal_refusal(view(), "9") == "not_in_session"
    assert not renderer_for("kadi").rule_vote and RENDERER.rule_vote


def test_amending_is_offered_per_rule_only_at_tables_that_take_built_rules():
    rules = [{"id": 1, "author": "1", "text": "", "rule": EIGHTS}]
    offered = RENDERER.extra_actions(view(rules=rules), "2")
    assert {"type": AMEND, "rule": 1} in offered
    assert RENDERER.action_path({"type": AMEND, "rule": 1}, view(), SW) == ["🗳 Pendekeza", "✏️ Rekebisha kanuni ya 1"]
    text_only = view(rules=rules, options={**view()["options"], "house_rules": "text"})
    assert {"type": AMEND, "rule": 1} not in RENDERER.extra_actions(text_only, "2")


@pytest.mark.parametrize("_", [EN, SW])
def test_the_builder_opens_an_amendment_on_the_rule_as_it_stands(_):
    code = steps_of(EIGHTS, _)
    draft = replay(code, _)
    assert draft.structure() == EIGHTS and draft.done
    text, markup = builder_message(5, 0, DraftCode(1, code).text(), _, {"id": 1, "rule": EIGHTS, "text": ""})
    datas = [button.callback_data for row in markup.inline_keyboard for button in row]
    assert datas == [f"B:5:0:a1.{code}!", f"B:5:0:a1.{code}>", f"B:5:0:a1.{code[:-1]}"]
    # A typed rule (no structure) starts from the first step.
    assert steps_of(None, _) == "" and steps_of({"text": "Sing"}, _) == ""
