"""`python -m engine.replay` on Pitch files: exit codes 0 (all applied), 1 (refused), 2 (malformed), and the output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.replay import parse_replay, run_replay
from tests.replay_cli import run_replay_cli

REPLAYS = Path(__file__).parent / "replays"


def replay(path: Path) -> tuple[int, dict | None, str]:
    done = run_replay_cli(path)
    output = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, output, done.stderr


def test_a_whole_hand_applies_and_scores():
    code, out, _ = replay(REPLAYS / "sweep_hand.json")
    assert code == 0 and out["ok"] and out["applied"] == 14 and out["error"] is None
    assert out["round"] == 2 and out["to_act"] == ["baraka"]  # amina deals hand 2, baraka bids first
    assert out["scores"] == {"amina": 4, "baraka": 0}
    assert [len(cards) for cards in out["hands"].values()] == [6, 6]
    assert out["finished"] is False and out["winners"] == []


def test_an_action_out_of_turn_is_refused_with_exit_1():
    code, out, _ = replay(REPLAYS / "refused_out_of_turn.json")
    assert code == 1 and out["ok"] is False and out["applied"] == 3
    assert out["error"]["index"] == 3 and out["error"]["player"] == "amina"
    assert out["error"]["code"] == "not_your_turn"
    assert out["hands"]["amina"] == ["10S", "JH", "KH", "3C", "4C"]  # AH is on the table


def test_an_unknown_action_type_is_malformed_with_exit_2():
    code, out, err = replay(REPLAYS / "malformed_action_type.json")
    assert code == 2 and out is None and "lead" in err


def test_clock_timeouts_replay():
    code, out, _ = replay(REPLAYS / "clock_timeouts.json")
    assert code == 0 and out["applied"] == 25 and out["round"] == 2
    expected = run_replay(parse_replay(json.loads((REPLAYS / "clock_timeouts.json").read_text())))
    assert out == expected


def test_a_whole_partnership_match_replays_to_its_end():
    code, out, _ = replay(REPLAYS / "partnership_match.json")
    assert code == 0 and out["finished"] is True and out["to_act"] == []
    assert out["winners"] == ["baraka", "dudu"]
    assert out["scores"]["amina"] == out["scores"]["chausiku"] and out["scores"]["baraka"] == out["scores"]["dudu"]


@pytest.mark.parametrize(
    "change, exit_code, reason",
    [
        ({"actions": [["amina", {"type": "bid", "value": 6}]]}, 1, "bid_out_of_range"),
        ({"actions": [["amina", {"type": "bid", "value": 5}]]}, 1, "bid_out_of_range"),
        ({"actions": [["amina", {"type": "play", "card": "AH"}]]}, 1, "bidding_in_progress"),
        ({"actions": [["amina", {"type": "bid", "value": "2"}]]}, 2, "value"),
        ({"actions": [["amina", {"type": "play", "card": "1H"}]]}, 2, "card"),
        ({"actions": [["zuhura", {"type": "pass"}]]}, 2, "zuhura"),
        ({"options": {"smudge": 1}}, 2, "smudge"),
        ({"options": {"partnerships": True}}, 2, "4 players"),
        ({"decks": [["AH", "KH"]]}, 2, "deck 1"),
    ],
)
def test_refused_and_malformed_files(tmp_path, change, exit_code, reason):
    data = json.loads((REPLAYS / "sweep_hand.json").read_text())
    data.update(change)
    path = tmp_path / "case.json"
    path.write_text(json.dumps(data))
    code, out, err = replay(path)
    assert code == exit_code
    if exit_code == 1:
        assert out["error"]["code"] == reason and out["applied"] == 0
    else:
        assert out is None and reason in err
