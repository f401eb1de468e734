"""Where computer players think: a strong search in worker processes, easy moves on the spot.

A strong decision is up to about half a second of pure Python. In a thread of the bot's process
it shares the GIL with the event loop: every time a press at another table waits for anything
(its database trip, its answer), the loop gets the GIL back only after Python's switch interval
(5 ms), and a press waits dozens of times (benchmarks/bench_thinking.py: the loop woke 5.4 ms
late at the median, 46 ms at worst, against 0.2 and 5 ms with a worker process). Easy and random
moves take well under 10 ms and are chosen inline.
The worker gets what the player may see (view and legal actions) and the seed, never the
state: the same decision as in the bot's own process, made elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine import ai
from engine.core.protocol import Action
from engine.registry import get_game
from tables.metrics import UNREAD, Metrics

log = logging.getLogger(__name__)


def decide(game_name: str, view: dict, legal: list[Action], seat: str, level: str, seed: int) -> Action:
    """One computer decision, by game name so that it can run in another process."""
    return ai.choose(get_game(game_name), view, legal, seat, level, seed)


class Thinker:
    """Runs strong decisions in `workers` processes (0: in a thread of this process, for tests
    and tools that need no second process). The pool starts on the first strong decision."""

    def __init__(self, workers: int = 0, metrics: Metrics = UNREAD):
        self._workers = workers
        self._pool: Executor | None = None
        self.metrics = metrics

    async def choose(self, game_name: str, view: dict, legal: list[Action], seat: str, level: str, seed: int) -> Action:
        began = time.monotonic()
        try:
            return await self._choose(game_name, view, legal, seat, level, seed)
        finally:
            self.metrics.computer_seconds.labels(level).observe(time.monotonic() - began)

    async def _choose(
        self, game_name: str, view: dict, legal: list[Action], seat: str, level: str, seed: int
    ) -> Action:
        if level != "strong":
            return decide(game_name, view, legal, seat, level, seed)
        if not self._workers:
            return await asyncio.to_thread(decide, game_name, view, legal, seat, level, seed)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._started(), decide, game_name, view, legal, seat, level, seed)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): a fresh pool for the next decision, and
            # this one in a thread, so that the table is not held up.
            log.warning("a computer players' worker process died; starting new ones")
            self._pool = None
            return await asyncio.to_thread(decide, game_name, view, legal, seat, level, seed)

    def _started(self) -> Executor:
        if self._pool is None:
            # "spawn": a worker starts clean instead of a copy of a process with running threads.
            self._pool = ProcessPoolExecutor(self._workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
