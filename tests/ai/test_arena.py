"""`karata arena --json` prints one JSON object of the issue's shape, and its figures add up."""

from __future__ import annotations

import json

from bot.cli import main


def test_arena_json_has_the_issues_shape(capsys):
    assert main(["arena", "pitch", "--seats", "easy,random,random", "--matches", "3", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "pitch"
    assert report["matches"] == 3
    assert report["seats"] == ["easy", "random", "random"]
    assert set(report["kinds"]) == {"easy", "random"}
    assert report["kinds"]["easy"]["seats"] == 1 and report["kinds"]["random"]["seats"] == 2
    for figures in report["kinds"].values():
        assert set(figures) == {"seats", "wins", "win_rate", "mean_score", "decision_ms"}
        assert figures["win_rate"] == round(figures["wins"] / 3, 4)
        assert set(figures["decision_ms"]) == {"p50", "p99", "max"}
        assert 0 <= figures["decision_ms"]["p50"] <= figures["decision_ms"]["p99"] <= figures["decision_ms"]["max"]
    # every match has its winners (a tie shares one win), so the wins add up to the matches
    assert sum(figures["wins"] for figures in report["kinds"].values()) == 3


def test_lopti_arena_matches_end_and_a_bad_seat_kind_is_refused(capsys):
    assert main(["arena", "lopti", "--seats", "easy,random", "--matches", "1", "--seed", "2"]) == 0
    assert "lopti: 1 matches" in capsys.readouterr().out
    assert main(["arena", "kadi", "--seats", "strong,genius", "--matches", "1"]) == 2
    assert "genius" in capsys.readouterr().err
