"""The figures behind /metrics and /status: a computer's thinking is timed by level, and "the last
hour" forgets what is older."""

from __future__ import annotations

import pytest
from prometheus_client import generate_latest

from tables.metrics import Metrics, Recent
from tables.thinking import Thinker
from tests.tables.test_thinking import _decision


@pytest.mark.asyncio
async def test_each_computer_decision_is_timed_under_its_level():
    metrics = Metrics()
    thinker = Thinker(workers=0, metrics=metrics)
    game, view, legal, player = _decision(2)
    await thinker.choose(game.name, view, legal, player, "easy", 2)
    await thinker.choose(game.name, view, legal, player, "easy", 3)
    page = generate_latest(metrics.registry).decode()
    assert 'karata_computer_decision_seconds_count{level="easy"} 2.0' in page


def test_the_last_hour_forgets_what_is_older():
    now = [0.0]
    recent = Recent(clock=lambda: now[0])
    recent.add()
    now[0] = 1800
    recent.add()
    recent.add()
    assert recent.count() == 3
    now[0] = 3660  # the first press is over an hour old
    assert recent.count() == 2
    now[0] = 9999
    assert recent.count() == 0


def test_two_bots_count_apart():
    first, second = Metrics(), Metrics()
    first.matches_finished.labels("kadi").inc()
    assert 'karata_matches_finished_total{game="kadi"} 1.0' in generate_latest(first.registry).decode()
    assert "kadi" not in generate_latest(second.registry).decode()
