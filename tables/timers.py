"""Every table's timers (timeouts, warnings, nudges, pauses, vote windows) on one JobQueue job.

Timers live in a heap ordered by due time; one JobQueue (APScheduler) job is armed for the
earliest of them and re-armed when it fires. Setting or cancelling a timer is a dict update and
a heap push, never a scan of the scheduler's jobs, so a restart with thousands of open tables
arms them all at once. A timer replaced or cancelled stays in the heap and is skipped when it
comes up. Each timer carries the table version it was set for; the table service ignores one
that fires after the table moved on.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import NamedTuple

from telegram.ext import ContextTypes, Job, JobQueue

log = logging.getLogger(__name__)


class Due(NamedTuple):
    """One timer: when it is due (epoch seconds), and what for. A tuple, so the heap compares
    in C: a restart pushes tens of thousands of them."""

    when: float
    serial: int
    table_id: int
    kind: str
    version: int


class Timers:
    def __init__(
        self,
        job_queue: JobQueue,
        on_due: Callable[[Due], Awaitable[None]],
        clock: Callable[[], float] = time.time,
    ):
        self.job_queue = job_queue
        self.on_due = on_due
        self.clock = clock
        self._heap: list[Due] = []
        self._current: dict[tuple[int, str], int] = {}
        self._serials = itertools.count()
        self._job: Job | None = None
        self._job_when = float("inf")
        self._running: set[asyncio.Task[None]] = set()

    def set(self, table_id: int, kind: str, when: float, version: int) -> None:
        """Arm the table's `kind` timer for `when`, replacing the one it had."""
        due = Due(when, next(self._serials), table_id, kind, version)
        self._current[(table_id, kind)] = due.serial
        heapq.heappush(self._heap, due)
        if when < self._job_when:
            self._arm(when)

    def cancel(self, table_id: int, *kinds: str) -> None:
        """Disarm the given kinds of the table's timers, or all of them."""
        if kinds:
            for kind in kinds:
                self._current.pop((table_id, kind), None)
            return
        for key in [key for key in self._current if key[0] == table_id]:
            del self._current[key]

    def armed(self, table_id: int) -> dict[str, float]:
        """The table's armed timers: kind -> due time (for tests and diagnostics)."""
        serials = {serial: kind for (table, kind), serial in self._current.items() if table == table_id}
        return {serials[due.serial]: due.when for due in self._heap if due.serial in serials}

    def _arm(self, when: float) -> None:
        if self._job is not None:
            self._job.schedule_removal()
        self._job_when = when
        self._job = self.job_queue.run_once(self._fire, max(0.0, when - self.clock()), name="table-timers")

    async def _fire(self, _context: ContextTypes.DEFAULT_TYPE) -> None:
        self._job, self._job_when = None, float("inf")
        now = self.clock()
        while self._heap and self._heap[0].when <= now:
            due = heapq.heappop(self._heap)
            key = (due.table_id, due.kind)
            if self._current.get(key) != due.serial:
                continue  # replaced or cancelled
            del self._current[key]
            # Each table's timer runs on its own, so one slow table never delays another's.
            task = asyncio.create_task(self._run(due))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        while self._heap and self._current.get((self._heap[0].table_id, self._heap[0].kind)) != self._heap[0].serial:
            heapq.heappop(self._heap)
        if self._heap:
            self._arm(self._heap[0].when)

    async def _run(self, due: Due) -> None:
        try:
            await self.on_due(due)
        except Exception:  # a timer must never take the others down with it
            log.exception("timer %s of table %s failed", due.kind, due.table_id)
