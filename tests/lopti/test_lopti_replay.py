"""`python -m engine.replay` plays Lopti files: exit 0 (all applied), 1 (refused), 2 (malformed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.replay_cli import run_replay_cli

REPLAYS = Path(__file__).parent / "replays"


def run(path: Path):
    done = run_replay_cli(path)
    return done.returncode, done.stdout, done.stderr


def test_replay_burn_and_take_applies_everything():
    code, out, _ = run(REPLAYS / "burn_and_take.json")
    assert code == 0
    result = json.loads(out)
    assert result["ok"] and result["applied"] == 9 and result["error"] is None
    assert result["to_act"] == ["baraka"] and result["round"] == 1
    amina = result["hands"]["amina"]
    assert amina["hand"] == ["4S", "6S", "6H", "7C", "9S"]
    assert set(amina) == {"hand", "face_up", "face_down"} and len(amina["face_down"]) == 3
    assert "4H" in result["hands"]["baraka"]["face_up"]
    assert result["scores"] == {"amina": 0, "baraka": 0, "chausiku": 0}
    assert result["finished"] is False and result["winners"] == []


def test_replay_stops_at_a_refused_action():
    code, out, _ = run(REPLAYS / "ten_after_seven_refused.json")
    assert code == 1
    result = json.loads(out)
    assert result["applied"] == 2
    assert result["error"]["index"] == 2 and result["error"]["code"] == "ten_on_seven"
    assert result["error"]["player"] == "baraka" and result["to_act"] == ["baraka"]


def test_replay_of_a_malformed_file_exits_2():
    code, out, err = run(REPLAYS / "malformed_card.json")
    assert code == 2 and out == "" and "action 1" in err


def test_replay_of_a_seeded_session_with_a_rule():
    code, out, _ = run(REPLAYS / "seeded_session.json")
    assert code == 0
    result = json.loads(out)
    assert result["round"] == 3 and sum(result["scores"].values()) == 2
    assert result["to_act"] == ["amina", "baraka", "chausiku", "daudi"]  # round 3 setup
    assert all(len(seat["hand"]) == 3 and len(seat["face_down"]) == 3 for seat in result["hands"].values())


@pytest.mark.parametrize(
    "action",
    [
        {"type": "propose", "change": {"remove": 1}, "starts": "later"},
        {"type": "vote"},
        {"type": "author_rule", "rule": {"text": 5}},
        {"type": "flip", "position": "0"},
        {"type": "shout"},
    ],
)
def test_bad_shapes_are_malformed_but_vote_actions_are_not(tmp_path, action):
    data = json.loads((REPLAYS / "burn_and_take.json").read_text())
    data["actions"] = [["amina", action]]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert run(path)[0] == 2
    data["actions"] = [["@clock", {"type": "close_vote"}], ["amina", {"type": "throw", "sign": "rock"}]]
    path.write_text(json.dumps(data))
    code, out, _ = run(path)
    assert code == 1 and json.loads(out)["error"]["code"] == "no_vote"  # well formed: refused, not malformed


def test_out_of_range_flip_is_refused_not_malformed(tmp_path):
    data = json.loads((REPLAYS / "burn_and_take.json").read_text())
    data["actions"] = [["@clock", {"type": "timeout"}], ["amina", {"type": "flip", "position": 5}]]
    path = tmp_path / "flip.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(path)
    assert code == 1 and json.loads(out)["error"]["code"] == "hand_not_empty"
