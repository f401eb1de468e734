"""How late the event loop runs what is due: the time every press waits before it is even read.

One timer callback a second (no task: nothing to wait for at a stop) notes how long after its due
moment it ran. A loop that keeps up runs it within a millisecond; a process near its ceiling (every
core's worth of presses, publishing and snapshots) runs it late, and `/metrics` shows it as
`karata_event_loop_lag_seconds` (docs/SCALING.md: which figure says a process is near its limit).
"""

from __future__ import annotations

import asyncio

from prometheus_client import Histogram

PROBE_EVERY_SECONDS = 1.0


class LoopLagProbe:
    def __init__(self, lag: Histogram, every: float = PROBE_EVERY_SECONDS):
        self.lag = lag
        self.every = every
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._schedule(loop)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        due = loop.time() + self.every
        self._handle = loop.call_at(due, self._tick, loop, due)

    def _tick(self, loop: asyncio.AbstractEventLoop, due: float) -> None:
        self.lag.observe(max(0.0, loop.time() - due))
        self._schedule(loop)
