"""Tests for the session flow: rounds, the winner's text rule, deleting rules, timeouts and the
actions left for the house-rules issue (docs/games/rules/lopti.md LOP-A19, LOP-A22, LOP-A23, sections 7 and 9)."""

from __future__ import annotations

import random

from engine.core.protocol import CLOCK, Applied
from engine.lopti import GAME

from .test_lopti_support import FIVE, act, act_events, build_deck, kinds, refused, started


def to_authoring(seed: int = 1, options=None, players=FIVE[:3]):
    """A seeded random round played to its end; returns the state waiting for the winner's rule."""
    rng = random.Random(seed)
    state = GAME.new(players, GAME.Options(**(options or {})), seed)
    while state.phase != "authoring":
        player = rng.choice(GAME.to_act(state))
        result = GAME.apply(state, player, rng.choice(GAME.legal_actions(state, player)))
        assert isinstance(result, Applied)
        state = result.state
    return state


def winner_of(state) -> str:
    return GAME.to_act(state)[0]


def test_winner_gives_a_text_rule_and_the_next_round_is_dealt():
    """L6.2, L19.1, LOP-A22/A23: the winner's text rule is stored for the session, then round 2 is dealt."""
    state = to_authoring()
    winner = winner_of(state)
    loser = next(p for p in state.players if p != winner)
    view = GAME.view(state, loser)
    assert view["phase"] == "authoring" and view["awaiting_rule"] == winner
    assert refused(state, loser, {"type": "no_rule"}).code == "not_round_winner"
    assert GAME.legal_actions(state, winner) == [{"type": "no_rule"}]
    state, events = act_events(state, winner, {"type": "author_rule", "rule": {"text": "  Sing when you burn.  "}})
    assert kinds(events) == ["rule_authored", "dealt"]
    assert GAME.round_number(state) == 2 and state.phase == "setup"
    rules = GAME.view(state, None)["rules"]
    assert rules == [
        {"id": 1, "author": winner, "text": "Sing when you burn.", "round": 1, "rule": None, "enforced": False}
    ]
    assert GAME.legal_actions(state, winner)[-1] == {"type": "delete_rule", "rule": 1}


def test_text_rule_length_is_one_to_280_characters():
    """Issue 4, section 8: text rules are 1-280 characters after stripping."""
    state = to_authoring()
    winner = winner_of(state)
    assert refused(state, winner, {"type": "author_rule", "rule": {"text": "   "}}).code == "rule_empty"
    assert refused(state, winner, {"type": "author_rule", "rule": {}}).code == "rule_empty"
    assert refused(state, winner, {"type": "author_rule", "rule": {"text": "x" * 281}}).code == "rule_too_long"
    act(state, winner, {"type": "author_rule", "rule": {"text": "x" * 280}})


def test_enforced_rules_are_validated_and_modes_are_respected():
    """LOP-A22, option `house_rules`: a template rule is validated (section 8: one to three
    effects); "templates" tables refuse text rules, "text" tables refuse templates."""
    template = {"when": "after", "event": "play", "do": [], "text": "Two 8s: next draws two."}
    state = to_authoring()
    assert refused(state, winner_of(state), {"type": "author_rule", "rule": template}).code == "bad_effects"
    state = to_authoring(options={"house_rules": "templates"})
    assert refused(state, winner_of(state), {"type": "author_rule", "rule": {"text": "hi"}}).code == "text_rules_off"
    state = to_authoring(options={"house_rules": "text"})
    assert refused(state, winner_of(state), {"type": "author_rule", "rule": template}).code == "templates_off"


def test_house_rules_off_deals_the_next_round_at_once():
    """Section 7/9: with `house_rules: "off"` there is no authoring step."""
    rng = random.Random(3)
    state = GAME.new(FIVE[:2], GAME.Options(house_rules="off"), 3)
    while state.round == 1:
        assert state.phase != "authoring"
        player = rng.choice(GAME.to_act(state))
        result = GAME.apply(state, player, rng.choice(GAME.legal_actions(state, player)))
        state = result.state
    assert state.phase == "setup" and sum(GAME.scores(state).values()) == 1
    assert "round_won" in kinds(result.events) and "dealt" in kinds(result.events)
    won = next(event for event in result.events if event.kind == "round_won")
    assert won.public["writes_rule"] is False, "the table is not told that the winner writes a rule"


def test_author_may_delete_their_rule_at_any_time():
    """L20.6, section 7 `delete_rule`: only the author, any time (here during the next setup and
    while someone else is to act); a deleted rule is no longer in force."""
    state = to_authoring()
    winner = winner_of(state)
    other = next(p for p in state.players if p != winner)
    state = act(state, winner, {"type": "author_rule", "rule": {"text": "Clap on a 2."}})
    assert refused(state, other, {"type": "delete_rule", "rule": 1}).code == "not_rule_author"
    assert refused(state, winner, {"type": "delete_rule", "rule": 2}).code == "no_such_rule"
    for player in state.players:
        if player != winner:
            state = act(state, player, {"type": "ready"})
    state, events = act_events(state, winner, {"type": "delete_rule", "rule": 1})
    assert kinds(events) == ["rule_deleted"] and GAME.view(state, None)["rules"] == []
    assert state.rules[0]["active"] is False  # kept for L20.9
    assert refused(state, winner, {"type": "delete_rule", "rule": 1}).code == "no_such_rule"


def test_vote_and_duel_actions_without_a_vote_or_duel_are_refused():
    """Section 7: propose, vote, champion, throw and the vote clocks are refused when there is
    nothing for them (no rule to remove, no vote open, no duel)."""
    state = started(build_deck())
    for action, code in (
        ({"type": "propose", "change": {"remove": 1}, "starts": "now"}, "no_such_rule"),
        ({"type": "vote", "yes": True}, "no_vote"),
        ({"type": "champion"}, "no_champion_wait"),
        ({"type": "throw", "sign": "rock"}, "no_duel"),
    ):
        assert refused(state, "baraka", action).code == code
    assert refused(state, CLOCK, {"type": "close_vote"}).code == "no_vote"
    assert refused(state, CLOCK, {"type": "close_champion"}).code == "no_champion_wait"


def test_timeouts_apply_the_spec_defaults():
    """Section 7 timeout: setup -> everyone ready; play -> take the pile, else the lowest card;
    authoring -> no rule."""
    deck = build_deck(hand={"amina": ["9S", "5S", "KS"], "baraka": ["AH", "4H", "6H"]})
    state = GAME.new(["amina", "baraka", "chausiku"], GAME.Options(), 1, "amina", [deck])
    state = act(state, "baraka", {"type": "ready"})
    state, events = act_events(state, CLOCK, {"type": "timeout"})
    assert kinds(events) == ["timed_out", "ready", "ready", "play_started"] and state.phase == "play"
    state, events = act_events(state, CLOCK, {"type": "timeout"})
    assert events[1].kind == "played" and events[1].public["cards"] == ["5S"]
    state, events = act_events(state, CLOCK, {"type": "timeout"})
    assert events[1].kind == "took" and GAME.to_act(state) == ["chausiku"]
    state = to_authoring()
    state, events = act_events(state, CLOCK, {"type": "timeout"})
    assert kinds(events) == ["timed_out", "no_rule", "dealt"] and state.round == 2


def test_timeout_lowest_card_ties_break_by_suit_order():
    """Section 9: the lowest natural rank, ties by suit order S, H, D, C."""
    deck = build_deck(hand={"amina": ["4D", "4H", "KS"]})
    state, events = act_events(started(deck), CLOCK, {"type": "timeout"})
    assert events[1].public["cards"] == ["4H"]


def test_scores_count_rounds_won_and_the_session_never_finishes():
    """Section 9: `finished` stays false, `winners` empty, `scores` count rounds won."""
    state = to_authoring(seed=4)
    assert not GAME.is_finished(state) and GAME.winners(state) == []
    assert sorted(GAME.scores(state).values()) == [0, 0, 1]


def test_LOP_A23_writing_a_rule_has_its_own_timer():
    """LOP-A23: the bot's timer gives the round's winner `authoring_timeout_s` to write a rule."""
    state = to_authoring()
    assert GAME.decision_seconds(state, 90) == state.options["authoring_timeout_s"] == 300
    state = act(state, winner_of(state), {"type": "no_rule"})
    assert GAME.decision_seconds(state, 90) == 90
