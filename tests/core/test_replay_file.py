"""The replay file's shape checks, shared by every game (docs/REPLAY.md)."""

import json
import subprocess
import sys

import pytest

from engine.core.cards import deck_24
from tests.replay_cli import run_replay_cli

BASE = {"game": "euchre3", "players": ["amina", "baraka", "chausiku"], "dealer": "amina", "seed": 3, "actions": []}


def replay(tmp_path, data):
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    done = run_replay_cli(path)
    return done.returncode, (json.loads(done.stdout) if done.stdout.strip() else None), done.stderr


@pytest.mark.parametrize(
    "change",
    [
        {"game": "poker"},
        {"players": []},
        {"players": ["amina", "amina", "baraka"]},
        {"dealer": "zawadi"},
        {"options": {"target": "ten"}},
        {"options": {"trumps": 1}},
        {"decks": [["9S"] * 24]},
        {"decks": [deck_24()[:-1]]},
        {"actions": [["zawadi", {"type": "pass"}]]},
        {"actions": [["baraka", {"type": "fly"}]]},
        {"actions": [["baraka", {"type": "play", "card": "1S"}]]},
        {"surprise": True},
    ],
)
def test_a_file_that_is_not_of_the_shape_exits_2_before_any_action(tmp_path, change):
    code, out, err = replay(tmp_path, {**BASE, **change})
    assert code == 2 and out is None and err.strip()


def test_a_file_that_is_not_json_exits_2(tmp_path):
    assert replay(tmp_path, "{not json")[0] == 2


def test_a_missing_seed_is_seed_zero(tmp_path):
    """Engine decision (docs/DECISIONS.md): `seed` may be left out; it is then 0."""
    without = replay(tmp_path, {k: v for k, v in BASE.items() if k != "seed"})
    with_zero = replay(tmp_path, {**BASE, "seed": 0})
    assert without[0] == 0 and without[1] == with_zero[1]


def test_a_card_outside_the_deck_is_refused_not_malformed(tmp_path):
    code, out, _ = replay(tmp_path, {**BASE, "actions": [["baraka", {"type": "play", "card": "2H"}]]})
    assert code == 1 and out["error"]["index"] == 0 and out["applied"] == 0


def test_python_m_engine_replay_runs_as_a_program(tmp_path):
    """The other replay tests call its `main` in-process; this one starts it as the rules' checkers do."""
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(BASE))
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
