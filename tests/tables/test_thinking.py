"""Computer players think in worker processes: the same move as at home, and a dead worker
never leaves a table without its move."""

from __future__ import annotations

import os
import signal

import pytest

from engine.ai import choose
from tables.thinking import Thinker
from tests.ai.helpers import midgame

pytestmark = pytest.mark.asyncio


def _decision(seed: int):
    game, state, player = midgame("pitch", seed)
    legal = game.legal_actions(state, player)
    while len(legal) < 2:  # a forced move is not a decision: play on to one that is
        state = game.apply(state, player, legal[0]).state
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
    return game, game.view(state, player), legal, player


async def test_a_strong_move_made_in_a_worker_is_the_move_made_at_home():
    thinker = Thinker(workers=1)
    try:
        for seed in (3, 8):
            game, view, legal, player = _decision(seed)
            away = await thinker.choose(game.name, view, legal, player, "strong", seed)
            assert away == choose(game, view, legal, player, "strong", seed)
            assert away in legal
    finally:
        thinker.close()


async def test_a_dead_worker_costs_no_move_and_the_next_decision_gets_a_fresh_one(caplog):
    thinker = Thinker(workers=1)
    try:
        game, view, legal, player = _decision(5)
        expected = choose(game, view, legal, player, "strong", 5)
        assert await thinker.choose(game.name, view, legal, player, "strong", 5) == expected
        for pid in list(thinker._pool._processes):  # the pool's workers, as the OS would end them
            os.kill(pid, signal.SIGKILL)
        assert await thinker.choose(game.name, view, legal, player, "strong", 5) == expected
        assert "worker process died" in caplog.text
        assert await thinker.choose(game.name, view, legal, player, "strong", 5) == expected
        assert thinker._pool is not None and all(p.is_alive() for p in thinker._pool._processes.values())
    finally:
        thinker.close()


async def test_easy_moves_need_no_worker():
    thinker = Thinker(workers=1)
    game, view, legal, player = _decision(2)
    expected = choose(game, view, legal, player, "easy", 2)
    assert await thinker.choose(game.name, view, legal, player, "easy", 2) == expected
    assert thinker._pool is None
