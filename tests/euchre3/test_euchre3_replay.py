"""`python -m engine.replay` on Euchre-3 files: exit codes 0, 1 and 2 and the printed outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.replay_cli import run_replay_cli

REPLAYS = Path(__file__).parent / "replays"


def replay(path: Path) -> tuple[int, dict | None, str]:
    done = run_replay_cli(path)
    output = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, output, done.stderr


def test_a_march_with_the_dummy_scores_three_and_deals_the_next_hand():
    code, out, _ = replay(REPLAYS / "march_with_dummy.json")
    assert code == 0 and out["ok"] and out["error"] is None and out["applied"] == 21
    assert out["scores"] == {"amina": 0, "baraka": 3, "chausiku": 0}
    assert out["round"] == 2 and out["to_act"] == ["chausiku"]  # baraka deals now
    assert set(out["hands"]) == {"amina", "baraka", "chausiku", "dummy"}
    assert all(len(cards) == 5 for cards in out["hands"].values())
    assert out["finished"] is False and out["winners"] == []


def test_not_following_suit_is_refused_with_exit_1():
    code, out, _ = replay(REPLAYS / "refused_must_follow_suit.json")
    assert code == 1 and out["ok"] is False and out["applied"] == 7
    assert out["error"]["index"] == 7 and out["error"]["player"] == "chausiku"
    assert out["error"]["code"] == "must_follow_suit" and out["error"]["message"]
    assert out["hands"]["baraka"] == ["9H", "9C", "10C", "QC"] and "dummy" not in out["hands"]
    assert out["to_act"] == ["chausiku"]


def test_a_card_outside_the_euchre_deck_is_refused_not_malformed():
    code, out, _ = replay(REPLAYS / "refused_not_in_deck.json")
    assert code == 1 and out["error"]["code"] == "not_in_deck" and out["error"]["index"] == 6


def test_unknown_action_type_is_malformed_with_exit_2():
    code, out, err = replay(REPLAYS / "malformed_action.json")
    assert code == 2 and out is None and "unknown action type" in err


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda f: f["decks"][0].__setitem__(0, "2H"), "does not hold exactly"),
        (lambda f: f["options"].__setitem__("deck", 52), "deck"),
        (lambda f: f["options"].__setitem__("no_such_option", True), "no_such_option"),
        (lambda f: f["actions"].append(["baraka", {"type": "play", "card": "ZZ"}]), "card"),
        (lambda f: f["actions"].append(["baraka", {"type": "name", "suit": "Z"}]), "suit"),
        (lambda f: f["actions"].append(["zawadi", {"type": "pass"}]), "zawadi"),
    ],
)
def test_malformed_files_exit_2_before_any_action(tmp_path, change, message):
    data = json.loads((REPLAYS / "march_with_dummy.json").read_text())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, out, err = replay(path)
    assert code == 2 and out is None and message in err


def test_timeouts_follow_the_section_7_defaults():
    code, out, _ = replay(REPLAYS / "timeouts_stuck_dealer.json")
    assert code == 0 and out["applied"] == 9
    # Stuck amina named hearts (spades turned down), kept her five strongest with the dummy.
    assert out["hands"]["amina"] == ["KD", "AD", "AH", "JD", "QD"]
    assert "dummy" not in out["hands"] and out["to_act"] == ["baraka"]


def test_a_whole_match_of_timeouts_ends_with_a_winner():
    code, out, _ = replay(REPLAYS / "full_match_timeouts.json")
    assert code == 0 and out["finished"] is True and out["to_act"] == []
    assert out["winners"] == ["chausiku"] and out["scores"]["chausiku"] >= 5
    assert out["round"] == 3
