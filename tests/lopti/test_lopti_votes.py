"""The Rule Vote (docs/games/rules/lopti.md L20.1-L20.10, LOP-A25, LOP-A27, sections 7 and 9).

Players: amina (dealer, opens round 1), baraka, chausiku (and daudi, eshe where named).
"""

from __future__ import annotations

import random

import pytest

from engine.core.protocol import CLOCK, Applied, MalformedAction
from engine.lopti import GAME

from .test_lopti_house_rules import EIGHTS_RULE, ruled
from .test_lopti_support import FIVE, PLAYERS, act, act_events, build_deck, kinds, play, refused

FOUR = FIVE[:4]
TEN_ON_SEVEN = {"option": "ten_on_seven", "value": True}


def propose(state, player, change, starts="now"):
    return act_events(state, player, {"type": "propose", "change": change, "starts": starts})


def vote(state, player, yes=True):
    return act_events(state, player, {"type": "vote", "yes": yes})


def table(players=PLAYERS, rules=(), options=None, ready=True):
    return ruled(
        build_deck(players, hand={"amina": ["9S", "5S", "KS"]}), *rules, players=players, options=options, ready=ready
    )


def test_L20_1_one_vote_per_round_from_the_deal_to_the_end_of_the_round():
    """L20.1, LOP-A25: a vote may be proposed from the deal (setup included); one per round."""
    state = table(ready=False)
    state, events = propose(state, "baraka", TEN_ON_SEVEN)
    assert kinds(events) == ["proposed"] and events[0].public["needed"] == 2
    state, _ = vote(state, "baraka", False)
    state, events = act_events(state, CLOCK, {"type": "close_vote"})
    assert events[0].public["result"] == "failed"
    assert refused(state, "chausiku", {"type": "propose", "change": TEN_ON_SEVEN, "starts": "now"}).code == "vote_used"


def test_L20_1_no_proposal_between_rounds_and_a_new_vote_each_round():
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    assert refused(state, "amina", {"type": "propose", "change": TEN_ON_SEVEN, "starts": "now"}).code == "no_vote_now"
    state = act(state, winner_of(state), {"type": "no_rule"})
    assert state.vote_used is False
    state, events = propose(state, "amina", TEN_ON_SEVEN)
    assert GAME.view(state, None)["vote"]["proposer"] == "amina"


def test_L20_2_a_vote_can_remove_or_amend_a_rule_or_change_a_base_rule():
    """L20.2, section 7: the three proposal kinds."""
    state = table(rules=[EIGHTS_RULE])
    state, _ = propose(state, "baraka", {"remove": 1})
    state, _ = vote(state, "baraka")
    state, events = vote(state, "chausiku")
    assert kinds(events) == ["voted"]  # 2 of 3 is a majority, but votes may change until it closes
    state, events = act_events(state, CLOCK, {"type": "close_vote"})
    assert kinds(events) == ["vote_closed", "change_applied"]
    assert GAME.view(state, None)["rules"] == [] and state.hooks == {}
    assert GAME.view(state, None)["removed_rules"][0]["id"] == 1

    amended = {**EIGHTS_RULE, "do": [{"effect": "draw", "who": "next", "n": 1}], "text": "8s: next draws one."}
    state = table(rules=[EIGHTS_RULE])
    state, _ = propose(state, "baraka", {"amend": 1, "rule": amended})
    state, _ = vote(state, "amina")
    state, _ = vote(state, "baraka")
    state, _ = vote(state, "chausiku", False)
    assert GAME.view(state, None)["rules"][0]["rule"]["do"] == [{"effect": "draw", "who": "next", "n": 1}]
    assert GAME.view(state, None)["rules"][0]["author"] == "amina" and state.hooks["play"][0]["id"] == 1

    state = table()
    state, _ = propose(state, "chausiku", TEN_ON_SEVEN)
    for player in PLAYERS:
        state, events = vote(state, player)
    assert state.options["ten_on_seven"] is True and events[-1].public["change"] == TEN_ON_SEVEN


def test_L20_2_bad_proposals_are_refused_with_a_reason():
    state = table(rules=[EIGHTS_RULE])
    for change, code in (
        ({"remove": 7}, "no_such_rule"),
        ({"amend": 7, "rule": EIGHTS_RULE}, "no_such_rule"),
        ({"amend": 1, "rule": EIGHTS_RULE}, "no_change"),
        ({"amend": 1, "rule": {"event": "shout", "do": [{"effect": "reverse"}]}}, "unknown_event"),
        ({"option": "ten_on_seven", "value": False}, "no_change"),
        ({"option": "ten_on_seven", "value": 1}, "bad_value"),
        ({"option": "jokers", "value": True}, "no_such_option"),
        ({"option": "house_rules", "value": "off"}, "not_a_base_rule"),
        ({"option": "authoring_timeout_s", "value": 60}, "not_a_base_rule"),
    ):
        assert refused(state, "baraka", {"type": "propose", "change": change, "starts": "now"}).code == code
    for change in ({"remove": 1, "option": "x"}, {"delete": 1}, {"remove": "1"}, {"amend": 1}):
        with pytest.raises(MalformedAction):
            GAME.check_action("baraka", {"type": "propose", "change": change, "starts": "now"}, PLAYERS)
    with pytest.raises(MalformedAction):  # a proposal by a non-member
        GAME.check_action("zawadi", {"type": "propose", "change": TEN_ON_SEVEN, "starts": "now"}, PLAYERS)


def test_L20_3_everyone_in_the_session_votes_even_players_already_out():
    """L20.3: players already out of the round are in the electorate."""
    rng = random.Random(4)
    state = GAME.new(FOUR, GAME.Options(play_for_places=True), 4)
    while not (state.out and state.phase == "play"):
        player = rng.choice(GAME.to_act(state))
        state = act(state, player, rng.choice(GAME.legal_actions(state, player)))
    out = state.players[state.out[0]]
    state, _ = propose(state, out, TEN_ON_SEVEN)
    assert {"type": "vote", "yes": True} in GAME.legal_actions(state, out)
    state, events = vote(state, out)
    assert events[0].public["player"] == out and GAME.view(state, None)["vote"]["yes"] == 1


@pytest.mark.parametrize(
    "players,yes,result",
    [
        (FIVE[:2], 2, "passed"),
        (FIVE[:2], 1, "tie"),
        (FIVE[:3], 2, "passed"),
        (FIVE[:3], 1, "failed"),
        (FIVE[:4], 3, "passed"),
        (FIVE[:4], 2, "tie"),
        (FIVE[:4], 1, "failed"),
        (FIVE, 3, "passed"),
        (FIVE, 2, "failed"),
    ],
)
def test_L20_4_majority_is_more_than_half_of_all_members_abstentions_count_against(players, yes, result):
    """L20.4, LOP-A25: passes iff yes > N/2 (N = all members, not voters); exactly N/2 is a tie."""
    state = table(players)
    state, _ = propose(state, players[0], TEN_ON_SEVEN)
    events = []
    for player in players[:yes]:
        state, events = vote(state, player)
    if result == "tie":  # one formal "no" (a tie with no "no" voter at all passes unopposed)
        state, events = vote(state, players[yes], False)
    if state.vote is not None:
        state, events = act_events(state, CLOCK, {"type": "close_vote"})
    closed = next(event for event in events if event.kind == "vote_closed")
    assert closed.public["result"] == result and closed.public["members"] == len(players)
    assert state.options["ten_on_seven"] is (result == "passed")
    assert state.vote is None and (state.duel is not None) == (result == "tie")


def test_LOP_A26_a_tie_with_no_formal_no_voter_passes_unopposed():
    """Engine decision (L21.3/L21.4 by analogy): nobody formally opposed, so nobody can duel."""
    state = table(FIVE[:2])
    state, _ = propose(state, "amina", TEN_ON_SEVEN)
    state, _ = vote(state, "amina")
    state, events = act_events(state, CLOCK, {"type": "close_vote"})
    assert kinds(events) == ["vote_closed", "duel_unopposed", "change_applied"] and state.options["ten_on_seven"]


def test_L20_5_the_winners_new_rule_does_not_use_the_vote():
    from .test_lopti_session import to_authoring, winner_of

    state = to_authoring()
    state = act(state, winner_of(state), {"type": "author_rule", "rule": EIGHTS_RULE})
    assert GAME.view(state, None)["vote_used"] is False
    propose(state, "baraka", {"remove": 1})


def test_L20_6_the_author_deletes_their_rule_without_a_vote_and_an_open_vote_on_it_is_void():
    """L20.6: deletion any time, no vote; deleting gives no replacement rule."""
    state = table(rules=[EIGHTS_RULE])
    state, _ = propose(state, "baraka", {"remove": 1})
    state, events = act_events(state, "amina", {"type": "delete_rule", "rule": 1})
    assert kinds(events) == ["rule_deleted", "vote_void"] and state.vote is None
    assert GAME.view(state, None)["rules"] == [] and state.vote_used is True


def test_L20_7_a_failed_or_tied_vote_uses_the_rounds_vote():
    for yes in (0, 1):  # 2 players: 0 yes fails, 1 yes ties
        state = table(FIVE[:2])
        state, _ = propose(state, "amina", TEN_ON_SEVEN)
        for player in FIVE[:yes]:
            state, _ = vote(state, player)
        state, _ = act_events(state, CLOCK, {"type": "close_vote"})
        assert state.vote_used
        state.duel = None
        assert (
            refused(state, "baraka", {"type": "propose", "change": TEN_ON_SEVEN, "starts": "now"}).code == "vote_used"
        )


def test_L20_8_now_or_next_round_and_completed_card_actions_stay():
    """L20.8: the proposer says now or next round; a change never undoes completed card actions."""
    state = table(rules=[EIGHTS_RULE])
    state = play(state, "amina", "9S")
    pile = list(state.pile)
    state, _ = propose(state, "baraka", {"remove": 1}, starts="next_round")
    for player in PLAYERS:
        state, events = vote(state, player)
    assert kinds(events)[-1] == "change_scheduled" and state.hooks and state.pile == pile
    assert GAME.view(state, None)["pending_changes"] == [{"remove": 1}]
    state.phase = "authoring"  # end the round here (the deal applies pending changes)
    state.round_winner = 0
    state, events = act_events(state, "amina", {"type": "no_rule"})
    assert kinds(events)[:3] == ["no_rule", "change_applied", "dealt"] and state.hooks == {}


def test_L20_9_a_removed_rule_returns_only_by_a_later_vote():
    """L20.9: after removal an `amend` proposal (a later vote) may bring the rule back."""
    state = table(rules=[EIGHTS_RULE])
    state = act(state, "amina", {"type": "delete_rule", "rule": 1})
    state, _ = propose(state, "chausiku", {"amend": 1, "rule": EIGHTS_RULE})
    for player in PLAYERS:
        state, _ = vote(state, player)
    assert [rule["id"] for rule in GAME.view(state, None)["rules"]] == [1] and state.hooks


def test_L20_10_the_vote_procedure_and_the_duel_cannot_be_changed():
    state = table()
    assert (
        refused(
            state,
            "baraka",
            {"type": "propose", "change": {"option": "rps_first_to_16", "value": False}, "starts": "now"},
        ).code
        == "vote_procedure_fixed"
    )


def test_LOP_A25_a_vote_may_be_changed_until_it_closes_and_closes_when_all_voted():
    state = table()
    state, _ = propose(state, "amina", TEN_ON_SEVEN)
    state, _ = vote(state, "amina", True)
    state, _ = vote(state, "baraka", True)
    state, events = vote(state, "baraka", False)
    assert events[0].public == {"player": "baraka", "yes": False, "vote": 1, "counts": {"yes": 1, "no": 1}}
    seen = GAME.view(state, "chausiku")["vote"]
    assert seen["voted"] == ["amina", "baraka"] and seen["waiting_for"] == ["chausiku"]
    assert seen["ballots"] == {"amina": True, "baraka": False}  # votes are public (non-anonymous poll)
    state, events = vote(state, "chausiku", False)
    assert kinds(events) == ["voted", "vote_closed"] and events[1].public["result"] == "failed"
    assert refused(state, "amina", {"type": "vote", "yes": True}).code == "no_vote"
    assert refused(state, CLOCK, {"type": "close_vote"}).code == "no_vote"


def test_LOP_A25_votes_never_block_play():
    """Votes are out-of-turn actions: `to_act` is unchanged and play goes on during a vote."""
    state = table()
    state, _ = propose(state, "baraka", TEN_ON_SEVEN)
    assert GAME.to_act(state) == ["amina"]
    assert {"type": "vote", "yes": False} in GAME.legal_actions(state, "chausiku")
    assert {"type": "vote", "yes": True} in GAME.legal_actions(state, "amina")
    assert {"type": "close_vote"} in GAME.legal_actions(state, CLOCK)
    state = play(state, "amina", "9S")
    assert GAME.to_act(state) == ["baraka"] and state.vote is not None
    # The turn timer is still the turn timer during a vote (section 9).
    state, events = act_events(state, CLOCK, {"type": "timeout"})
    assert state.vote is not None and events[0].public["phase"] == "play"


def test_LOP_A27_a_new_session_starts_with_base_lopti_only():
    """L22.1, LOP-A27: every session (a new game) starts with no rules, a fresh vote, base options."""
    state = GAME.new(PLAYERS, GAME.Options(), 3)
    view = GAME.view(state, None)
    assert view["rules"] == [] and view["vote"] is None and view["duel"] is None and view["vote_used"] is False
    assert view["removed_rules"] == [] and view["pending_changes"] == []


def test_votes_survive_a_json_round_trip():
    state = table(FOUR)
    state, _ = propose(state, "amina", TEN_ON_SEVEN)
    state, _ = vote(state, "baraka", False)
    loaded = GAME.load(GAME.dump(state))
    assert loaded == state and GAME.view(loaded, "amina") == GAME.view(state, "amina")
    result = GAME.apply(loaded, "amina", {"type": "vote", "yes": True})
    assert isinstance(result, Applied)


RESTORE = {
    "restore": [{"author": "zawadi", "rule": EIGHTS_RULE}, {"author": "amina", "rule": {"text": "Sing when you burn."}}]
}


def test_L22_3_earlier_rules_are_restored_by_a_majority_without_using_round_ones_vote():
    """L22.3 (engine decision: a `restore` proposal at round 1's setup; a tie does not restore)."""
    state = table(ready=False)
    state, events = propose(state, "amina", RESTORE)
    assert kinds(events) == ["proposed"]
    state, _ = vote(state, "amina")
    state, _ = vote(state, "baraka")
    state, events = vote(state, "chausiku", False)
    assert "change_applied" in kinds(events)
    rules = GAME.view(state, None)["rules"]
    assert [(rule["author"], rule["enforced"]) for rule in rules] == [("zawadi", True), ("amina", False)]
    assert state.vote_used is False
    state, events = propose(state, "baraka", TEN_ON_SEVEN)
    assert kinds(events) == ["proposed"]


def test_L22_3_a_restore_without_a_majority_restores_nothing_and_starts_no_duel():
    state = table(players=FOUR, ready=False)
    state, _ = propose(state, "amina", RESTORE)
    for player, yes in zip(FOUR, (True, True, False, False)):
        state, events = vote(state, player, yes)
    closed = next(event for event in events if event.kind == "vote_closed")
    assert closed.public["result"] == "failed"
    assert GAME.view(state, None)["rules"] == [] and GAME.view(state, None)["duel"] is None


def test_L22_3_restoring_is_only_for_a_new_sessions_setup():
    state = table(ready=True)
    assert (
        refused(state, "amina", {"type": "propose", "change": RESTORE, "starts": "now"}).code == "restore_at_setup_only"
    )
    bad = {"restore": [{"author": "zawadi", "rule": {"event": "nap", "do": []}}]}
    assert (
        refused(table(ready=False), "amina", {"type": "propose", "change": bad, "starts": "now"}).code
        == "unknown_event"
    )
    with pytest.raises(MalformedAction):
        GAME.check_action("amina", {"type": "propose", "change": {"restore": [{"rule": {}}]}, "starts": "now"}, PLAYERS)


def withdraw(state, player):
    return act_events(state, player, {"type": "withdraw_vote"})


def test_LOP_A25_a_withdrawn_ballot_no_longer_counts_and_the_vote_waits_for_that_member():
    """Engine decision: a retracted poll answer withdraws the ballot. With three members, two
    yes then one withdrawn and a no is one yes of three: the vote fails on the clock."""
    state = table()
    state, _ = propose(state, "amina", TEN_ON_SEVEN)
    state, _ = vote(state, "amina")
    state, _ = vote(state, "baraka")
    assert {"type": "withdraw_vote"} in GAME.legal_actions(state, "baraka")
    assert {"type": "withdraw_vote"} not in GAME.legal_actions(state, "chausiku")
    state, events = withdraw(state, "baraka")
    assert kinds(events) == ["vote_withdrawn"]
    assert events[0].public == {"player": "baraka", "vote": 1, "counts": {"yes": 1, "no": 0}}
    seen = GAME.view(state, None)["vote"]
    assert seen["ballots"] == {"amina": True} and seen["waiting_for"] == ["baraka", "chausiku"]
    state, events = vote(state, "chausiku", False)
    assert kinds(events) == ["voted"] and state.vote is not None  # baraka has not answered
    state, events = act_events(state, CLOCK, {"type": "close_vote"})
    assert events[0].public["result"] == "failed" and events[0].public["yes"] == 1
    assert state.options["ten_on_seven"] is False


def test_LOP_A25_only_a_member_with_a_ballot_may_withdraw_it():
    state = table()
    assert refused(state, "amina", {"type": "withdraw_vote"}).code == "no_vote"
    state, _ = propose(state, "amina", TEN_ON_SEVEN)
    assert refused(state, "baraka", {"type": "withdraw_vote"}).code == "no_ballot"
    with pytest.raises(MalformedAction):
        GAME.check_action("zawadi", {"type": "withdraw_vote"}, PLAYERS)


def test_LOP_A25_a_changed_answer_replaces_the_ballot_and_a_withdrawn_one_can_be_cast_again():
    state = table(FOUR)
    state, _ = propose(state, "amina", TEN_ON_SEVEN)
    state, _ = vote(state, "amina")
    state, _ = vote(state, "baraka", False)
    state, _ = vote(state, "baraka", True)  # replaces the no: two yes, no "no"
    assert GAME.view(state, None)["vote"]["yes"] == 2 and GAME.view(state, None)["vote"]["no"] == 0
    state, _ = withdraw(state, "baraka")
    state, _ = vote(state, "baraka", False)
    state, _ = vote(state, "chausiku", False)
    state, events = vote(state, "daudi", True)
    closed = next(event for event in events if event.kind == "vote_closed")
    assert closed.public["ballots"] == {"amina": True, "baraka": False, "chausiku": False, "daudi": True}
    # A tie: the duel's defender for a base rule is the first player whose standing ballot is no.
    assert state.duel["defender"] == "baraka"


def test_L20_2_an_amendment_scheduled_for_next_round_replaces_the_rule_at_the_deal():
    """L20.2, L20.8: the amended rule replaces the old one (same number and author) from the deal."""
    amended = {
        "when": "after",
        "event": "take",
        "do": [{"effect": "draw", "who": "next", "n": 1}],
        "text": "After taking the pile: the next player draws 1.",
    }
    state = table(rules=[EIGHTS_RULE])
    state, events = propose(state, "baraka", {"amend": 1, "rule": amended}, starts="next_round")
    assert events[0].public["change"]["amend"] == 1
    for player in PLAYERS:
        state, events = vote(state, player)
    assert kinds(events)[-1] == "change_scheduled" and state.hooks["play"][0]["id"] == 1
    state.phase = "authoring"
    state.round_winner = 0
    state, events = act_events(state, "amina", {"type": "no_rule"})
    assert "change_applied" in kinds(events)
    [rule] = GAME.view(state, None)["rules"]
    assert (rule["id"], rule["author"], rule["text"]) == (1, "amina", amended["text"])
    assert "play" not in state.hooks and state.hooks["take"][0]["id"] == 1


def test_L20_2_a_failed_amendment_leaves_the_rule_as_it_was():
    amended = {**EIGHTS_RULE, "do": [{"effect": "skip", "who": "next"}], "text": "8s: next misses a turn."}
    state = table(rules=[EIGHTS_RULE])
    state, _ = propose(state, "baraka", {"amend": 1, "rule": amended})
    state, _ = vote(state, "baraka")
    state, events = act_events(state, CLOCK, {"type": "close_vote"})
    assert events[0].public["result"] == "failed"
    assert GAME.view(state, None)["rules"][0]["rule"]["do"] == EIGHTS_RULE["do"]
