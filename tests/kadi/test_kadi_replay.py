"""`python -m engine.replay` plays Kadi files: exit 0 (all applied), 1 (refused), 2 (malformed)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.replay_cli import run_replay_cli

REPLAYS = Path(__file__).resolve().parent / "replays"


def run(path: Path) -> subprocess.CompletedProcess:
    return run_replay_cli(path)


def test_a_complete_round_replays_with_exit_zero():
    """docs/REPLAY.md replay format: a won round is scored and the next round dealt by the next dealer."""
    done = run(REPLAYS / "quick_round.json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] and out["applied"] == 4 and out["error"] is None
    assert out["round"] == 2 and out["to_act"] == ["baraka"]
    assert out["scores"] == {"amina": 0, "baraka": 30, "chausiku": 31}
    assert sorted(out["hands"]) == ["amina", "baraka", "chausiku"]
    assert all(len(cards) == 5 for cards in out["hands"].values())
    assert out["finished"] is False and out["winners"] == []


def test_a_refused_action_stops_the_replay_with_exit_one():
    """docs/REPLAY.md: a well-formed action the rules refuse: exit 1, its index and code; nothing after it applied."""
    done = run(REPLAYS / "refused_card.json")
    assert done.returncode == 1
    out = json.loads(done.stdout)
    assert out["applied"] == 1
    assert out["error"] == {
        "index": 1,
        "player": "baraka",
        "code": "illegal_card",
        "message": out["error"]["message"],
    }
    assert out["to_act"] == ["baraka"] and out["hands"]["amina"] == ["9H", "9S", "9D", "9C"]


def test_a_malformed_command_is_exit_two():
    """docs/games/rules/kadi.md, section 7: a command that is not {"suit": s} or {"power": true} makes the file malformed."""
    done = run(REPLAYS / "malformed_command.json")
    assert done.returncode == 2
    assert done.stdout == "" and "command" in done.stderr


def test_a_seeded_file_with_timeouts_replays_the_same_twice():
    """docs/REPLAY.md randomness: no deck given, the seed decides; the clock's timeouts replay exactly."""
    first, second = run(REPLAYS / "seeded_with_timeouts.json"), run(REPLAYS / "seeded_with_timeouts.json")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    out = json.loads(first.stdout)
    assert out["applied"] == 4 and out["to_act"] == ["amina"]
    assert sum(len(cards) for cards in out["hands"].values()) == 14 + 3 + 5


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"options": {"hand_size": 9}}, "hand_size"),
        ({"options": {"jokers": 3}}, "jokers"),
        ({"actions": [["amina", {"type": "play", "cards": ["1H"]}]]}, "card"),
        ({"actions": [["amina", {"type": "shout"}]]}, "shout"),
        ({"decks": [["5H"] * 54]}, "deck"),
    ],
)
def test_malformed_files_are_exit_two(tmp_path, change, reason):
    """docs/REPLAY.md: unknown options, card codes, action types, or a deck that is not Kadi's: exit 2."""
    data = json.loads((REPLAYS / "quick_round.json").read_text())
    data.update(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    done = run(path)
    assert done.returncode == 2
    assert reason in done.stderr
