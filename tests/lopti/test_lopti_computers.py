"""Computer players in Lopti (a table decision, docs/games/lopti.md): they play their turns, pass
the house rule, and take no part in the Rule Vote or its duel; the electorate is the people."""

from __future__ import annotations

from engine.core.serialize import state_from_json, state_to_json
from engine.lopti import GAME

from .test_lopti_house_rules import EIGHTS_RULE
from .test_lopti_session import to_authoring, winner_of
from .test_lopti_support import act_events
from .test_lopti_votes import TEN_ON_SEVEN, propose, table, vote


def test_a_computer_round_winner_may_only_pass_the_house_rule():
    state = to_authoring()
    winner = winner_of(state)
    state = GAME.with_computers(state, [winner])
    assert GAME.legal_actions(state, winner) == [{"type": "no_rule"}]
    state, events = act_events(state, winner, {"type": "no_rule"})
    assert events[0].kind == "no_rule"


def test_the_people_are_the_electorate_and_computers_get_no_ballot():
    state = GAME.with_computers(table(), ["chausiku"])
    state, events = propose(state, "baraka", TEN_ON_SEVEN)
    assert events[0].public["members"] == 2 and events[0].public["needed"] == 2
    assert not any(action["type"] == "vote" for action in GAME.legal_actions(state, "chausiku"))
    state, _ = vote(state, "baraka")
    state, events = vote(state, "amina")  # every person has voted: the vote closes at once
    closed = next(event for event in events if event.kind == "vote_closed")
    assert closed.public["result"] == "passed" and closed.public["members"] == 2


def test_a_rule_written_by_a_seat_a_computer_now_plays_is_defended_by_the_people_who_voted_no():
    state = GAME.with_computers(table(rules=[EIGHTS_RULE]), ["amina"])  # amina wrote it, then left
    state, _ = propose(state, "baraka", {"remove": 1})
    state, _ = vote(state, "baraka")
    state, events = vote(state, "chausiku", False)
    started = next(event for event in events if event.kind == "duel_started")
    assert started.public["defender"] == "chausiku"


def test_a_state_without_computers_dumps_as_before_and_one_with_them_keeps_them():
    plain = table()
    assert "computers" not in GAME.dump(plain)
    with_computers = GAME.with_computers(plain, ["chausiku"])
    assert state_from_json(GAME, state_to_json(GAME, with_computers)).computers == ["chausiku"]
    assert plain.computers == []
