"""The Rock-Paper-Scissors duel of a tied Rule Vote (docs/games/rules/lopti.md L21.1-L21.7, LOP-A26, section 8).

Four players (a tie is yes = exactly 2): amina (dealer, opens), baraka, chausiku, daudi.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.protocol import CLOCK
from engine.lopti import GAME
from tests.replay_cli import run_replay_cli

from .test_lopti_house_rules import EIGHTS_RULE, ruled
from .test_lopti_support import FIVE, act, act_events, build_deck, kinds, play, refused

FOUR = FIVE[:4]
TEN_ON_SEVEN = {"option": "ten_on_seven", "value": True}


def tied(
    change, proposer="baraka", yes=("baraka", "chausiku"), no=("daudi", "amina"), rules=(EIGHTS_RULE,), options=None
):
    """A 4-player table (amina authored rule 1) whose vote on `change` ties 2-2: a duel starts."""
    state = ruled(build_deck(FOUR, hand={"amina": ["9S", "5S", "KS"]}), *rules, players=FOUR, options=options)
    state = act(state, proposer, {"type": "propose", "change": change, "starts": "now"})
    for player in yes:
        state = act(state, player, {"type": "vote", "yes": True})
    for player in no:
        state = act(state, player, {"type": "vote", "yes": False})
    if state.vote is not None:
        state = act(state, CLOCK, {"type": "close_vote"})
    assert state.duel is not None
    return state


def exchange(state, a, sign_a, b, sign_b):
    state = act(state, a, {"type": "throw", "sign": sign_a})
    return act_events(state, b, {"type": "throw", "sign": sign_b})


def test_L21_1_a_tie_is_decided_by_rock_paper_scissors():
    state = tied({"remove": 1})
    duel = GAME.view(state, None)["duel"]
    assert duel["proposer"] == "baraka" and duel["score"] == {"proposer": 0, "defender": 0}


def test_L21_2_the_proposer_faces_the_rules_author():
    state = tied({"remove": 1})
    duel = GAME.view(state, None)["duel"]
    assert duel["defender"] == "amina" and duel["stage"] == "author"
    assert {"type": "throw", "sign": "rock"} in GAME.legal_actions(state, "amina")
    assert refused(state, "chausiku", {"type": "throw", "sign": "rock"}).code == "not_in_duel"
    state, events = exchange(state, "baraka", "rock", "amina", "rock")
    assert GAME.view(state, None)["duel"]["stage"] == "throws"


def test_L21_3_an_absent_authors_supporters_choose_a_champion():
    """L21.3, section 8: the author does not answer (the clock); the first "no" voter to volunteer
    defends the rule."""
    state = tied({"remove": 1}, no=("daudi",))
    assert {"type": "close_author"} in GAME.legal_actions(state, CLOCK)
    state, events = act_events(state, CLOCK, {"type": "close_author"})
    assert kinds(events) == ["author_absent"] and GAME.view(state, None)["duel"]["stage"] == "champion"
    # The champion's wait is a window of its own (the bot arms it afresh), not the author's.
    assert {"type": "close_champion"} in GAME.legal_actions(state, CLOCK)
    assert {"type": "close_author"} not in GAME.legal_actions(state, CLOCK)
    assert refused(state, CLOCK, {"type": "close_author"}).code == "no_champion_wait"
    assert refused(state, "chausiku", {"type": "champion"}).code == "not_a_supporter"  # voted yes
    assert GAME.legal_actions(state, "daudi")[-1] == {"type": "champion"}
    state, events = act_events(state, "daudi", {"type": "champion"})
    duel = GAME.view(state, None)["duel"]
    assert duel["defender"] == "daudi" and duel["stage"] == "throws"
    assert refused(state, CLOCK, {"type": "close_champion"}).code == "no_champion_wait"


def test_L21_3_if_no_champion_comes_forward_the_change_passes():
    state = tied({"remove": 1}, no=("daudi",))
    state = act(state, CLOCK, {"type": "close_champion"})  # as replay files write the author's wait
    state, events = act_events(state, CLOCK, {"type": "close_champion"})
    assert kinds(events) == ["no_champion", "change_applied"] and state.duel is None
    assert GAME.view(state, None)["rules"] == []


def test_L21_4_a_base_rule_proposal_faces_the_first_player_who_voted_no():
    state = tied(TEN_ON_SEVEN, no=("daudi", "amina"))
    assert GAME.view(state, None)["duel"]["defender"] == "daudi"
    # "first" is the first current "no": a voter who changed to no later comes after.
    state = ruled(build_deck(FOUR), players=FOUR)
    state = act(state, "baraka", {"type": "propose", "change": TEN_ON_SEVEN, "starts": "now"})
    for player, yes in (
        ("amina", False),
        ("daudi", False),
        ("amina", True),
        ("amina", False),
        ("baraka", True),
        ("chausiku", True),
    ):
        state = act(state, player, {"type": "vote", "yes": yes})
    assert GAME.view(state, None)["duel"]["defender"] == "daudi"


def test_L21_5_only_decisive_throws_count():
    state = tied(TEN_ON_SEVEN)
    state, events = exchange(state, "baraka", "paper", "daudi", "paper")
    revealed = events[-1].public
    assert revealed["winner"] is None and revealed["signs"] == {"baraka": "paper", "daudi": "paper"}
    duel = GAME.view(state, None)["duel"]
    assert duel["score"] == {"proposer": 0, "defender": 0} and duel["draws"] == 1
    state, events = exchange(state, "baraka", "paper", "daudi", "rock")
    assert events[-1].public["winner"] == "baraka"
    assert GAME.view(state, None)["duel"]["score"] == {"proposer": 1, "defender": 0}


def test_L21_5_first_to_16_the_proposer_wins_and_the_change_passes():
    state = tied(TEN_ON_SEVEN)
    for _ in range(16):
        state, events = exchange(state, "baraka", "scissors", "daudi", "paper")
    assert kinds(events)[-3:] == ["throws_revealed", "duel_won", "change_applied"]
    assert events[-2].public["score"] == {"baraka": 16, "daudi": 0} and state.options["ten_on_seven"]


def test_L21_5_the_defender_wins_and_the_change_fails():
    state = tied({"remove": 1})
    for _ in range(16):
        state, events = exchange(state, "baraka", "rock", "amina", "paper")
    assert kinds(events)[-2:] == ["duel_won", "change_rejected"] and state.duel is None
    assert [rule["id"] for rule in GAME.view(state, None)["rules"]] == [1]


def test_L21_6_without_early_stop_30_decisive_throws_and_15_15_sudden_death():
    """L21.5-L21.6, option `rps_first_to_16` off: exactly 30 decisive throws; 15-15: the next decides."""
    state = tied(TEN_ON_SEVEN, options={"rps_first_to_16": False})
    for _ in range(16):
        state, events = exchange(state, "baraka", "rock", "daudi", "scissors")
    assert state.duel is not None and GAME.view(state, None)["duel"]["target"] == 30  # 16-0 goes on
    for _ in range(14):
        state, events = exchange(state, "baraka", "rock", "daudi", "paper")
    assert kinds(events)[-2] == "duel_won" and events[-2].public["score"] == {"baraka": 16, "daudi": 14}
    state = tied(TEN_ON_SEVEN, options={"rps_first_to_16": False})
    for _ in range(15):
        state, _ = exchange(state, "baraka", "rock", "daudi", "scissors")
        state, _ = exchange(state, "baraka", "rock", "daudi", "paper")
    assert state.duel is not None  # 15-15 after 30
    state, events = exchange(state, "baraka", "rock", "daudi", "paper")
    assert events[-2].public["player"] == "daudi" and events[-2].public["score"] == {"baraka": 15, "daudi": 16}


def test_LOP_A26_throws_are_revealed_together_and_a_pending_throw_never_leaks():
    state = tied(TEN_ON_SEVEN)
    state, events = act_events(state, "baraka", {"type": "throw", "sign": "scissors"})
    assert kinds(events) == ["throw_made"]
    for viewer in ("amina", "chausiku", "daudi", None):
        assert "scissors" not in json.dumps(events[0].view(viewer))
        seen = GAME.view(state, viewer)
        assert "scissors" not in json.dumps(seen) and seen["duel"]["thrown"] == ["baraka"]
    assert (
        events[0].view("baraka")["sign"] == "scissors" and GAME.view(state, "baraka")["duel"]["my_throw"] == "scissors"
    )
    assert "scissors" not in json.dumps(GAME.view(state, "daudi"))
    assert refused(state, "baraka", {"type": "throw", "sign": "rock"}).code == "already_thrown"
    assert [a for a in GAME.legal_actions(state, "baraka") if a["type"] == "throw"] == []
    state, events = act_events(state, "daudi", {"type": "throw", "sign": "rock"})
    assert events[-1].public["signs"] == {"baraka": "scissors", "daudi": "rock"}
    assert GAME.view(state, None)["duel"]["thrown"] == []


def test_LOP_A26_the_duel_never_blocks_play_and_blocks_a_new_proposal():
    state = tied(TEN_ON_SEVEN)
    assert GAME.to_act(state) == ["amina"]
    state = play(state, "amina", "9S")
    assert state.duel is not None
    assert refused(state, "chausiku", {"type": "propose", "change": {"remove": 1}, "starts": "now"}).code == "vote_open"


def test_LOP_A26_the_author_deleting_the_rule_voids_the_duel():
    state = tied({"remove": 1})
    state, events = act_events(state, "amina", {"type": "delete_rule", "rule": 1})
    assert kinds(events) == ["rule_deleted", "vote_void"] and state.duel is None


def test_LOP_A26_a_proposer_who_wrote_the_rule_faces_the_first_no_voter():
    """Engine decision: a proposer cannot duel themselves; the rule's first "no" voter defends it."""
    state = tied({"remove": 1}, proposer="amina", yes=("amina", "baraka"), no=("chausiku", "daudi"))
    duel = GAME.view(state, None)["duel"]
    assert duel["proposer"] == "amina" and duel["defender"] == "chausiku" and duel["stage"] == "throws"


# ----- replay files with the meta-game actions (docs/REPLAY.md replay format) ------------------------


def _replay(name: str):
    done = run_replay_cli(Path(__file__).parent / "replays" / name)
    return done.returncode, json.loads(done.stdout)


def test_replay_with_a_vote_a_duel_and_a_house_rule_applies_everything():
    """A tie during setup goes to a duel (proposer baraka vs amina, the first current "no"), baraka
    wins 16-0 after a drawn throw; round 1 is played; the winner authors a structured rule; a
    second-round vote is proposed and closed by the clock."""
    code, result = _replay("vote_duel_and_house_rule.json")
    assert code == 0 and result["ok"] and result["applied"] == 275
    assert result["round"] == 2 and result["scores"] == {"amina": 0, "baraka": 1, "chausiku": 0, "daudi": 0}
    assert result["to_act"] == ["baraka"]
    data = json.loads(
        (__import__("pathlib").Path(__file__).parent / "replays" / "vote_duel_and_house_rule.json").read_text()
    )
    state = GAME.new(data["players"], GAME.Options(), data["seed"], data["dealer"])
    for player, action in data["actions"]:
        state = act(state, player, action)
    assert state.options["ten_on_seven"] is True and state.hooks["play"][0]["author"] == "baraka"
    assert GAME.view(state, None)["duel"]["stage"] == "author"  # 2-2 on removing baraka's rule


def test_replay_stops_at_a_second_proposal_in_one_round():
    code, result = _replay("second_vote_refused.json")
    assert code == 1 and result["applied"] == 9
    assert result["error"]["code"] == "vote_used" and result["error"]["player"] == "daudi"


def test_replay_stops_at_a_second_throw_before_the_reveal():
    code, result = _replay("throw_twice_refused.json")
    assert code == 1 and result["applied"] == 11
    assert result["error"]["code"] == "already_thrown" and result["error"]["index"] == 11
