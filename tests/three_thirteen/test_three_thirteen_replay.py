"""`python -m engine.replay` on Three Thirteen files: exit codes 0, 1, 2 and the output (docs/REPLAY.md)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.replay_cli import run_replay_cli

REPLAYS = Path(__file__).parent / "replays"


def run(path: Path) -> subprocess.CompletedProcess:
    return run_replay_cli(path)


def replay(name: str) -> tuple[int, dict | None, str]:
    done = run(REPLAYS / name)
    output = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, output, done.stderr


def test_a_round_played_out_exits_zero():
    code, out, _ = replay("go_out_round_one.json")
    assert code == 0 and out["ok"] and out["applied"] == 4 and out["error"] is None
    assert out["round"] == 2 and out["scores"] == {"amina": 0, "baraka": 1 + 10 + 10}
    assert out["to_act"] == ["baraka"]  # round 2 is dealt by amina, the player to baraka's left
    assert [len(hand) for hand in out["hands"].values()] == [4, 4]
    assert out["finished"] is False and out["winners"] == []


def test_a_refused_action_exits_one_and_stops_there():
    code, out, _ = replay("refused_out_of_turn.json")
    assert code == 1 and out["ok"] is False and out["applied"] == 1
    assert out["error"] == {
        "index": 1,
        "player": "baraka",
        "code": "not_your_turn",
        "message": "Wait for amina to play.",
    }
    assert out["hands"]["amina"] == ["5H", "6H", "9C", "2D"] and out["to_act"] == ["amina"]


def test_a_malformed_file_exits_two():
    code, out, err = replay("malformed_card.json")
    assert code == 2 and out is None and "'card'" in err


def test_the_clock_plays_a_whole_match():
    code, out, _ = replay("clock_plays_a_whole_match.json")
    assert code == 0 and out["finished"] is True and out["to_act"] == [] and out["round"] == 11
    assert out["winners"] == ["amina"] and out["scores"] == {"amina": 72, "baraka": 92, "chausiku": 120}
    assert out["hands"]["baraka"] == []  # baraka went out in the last round: the melds are on the table


def test_an_action_after_the_end_is_refused(tmp_path):
    data = json.loads((REPLAYS / "clock_plays_a_whole_match.json").read_text())
    data["actions"].append(["@clock", {"type": "timeout"}])
    path = tmp_path / "late.json"
    path.write_text(json.dumps(data))
    done = run(path)
    out = json.loads(done.stdout)
    assert done.returncode == 1 and out["error"]["code"] == "match_over" and out["applied"] == len(data["actions"]) - 1


def test_unknown_option_and_bad_deck_are_malformed(tmp_path):
    base = json.loads((REPLAYS / "go_out_round_one.json").read_text())
    for change in ({"options": {"joker": 2}}, {"decks": [base["decks"][0][:-1]]}, {"options": {"jokers": 3}}):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**base, **change}))
        done = run(path)
        assert done.returncode == 2 and done.stdout == "", change
