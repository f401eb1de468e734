"""Turns at the one database connection: one writer at a time, a move's write first.

Every write shares the store's single connection, so writes take turns (one write's commit must
never commit another's half-done transaction). A player waits for their move's write; nobody
waits for the record of what a message shows. So when the connection is free, a waiting move
goes before waiting records, however long those have waited.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

MOVE = 0  # a table's change, which a press or a timer waits for
RECORD = 1  # everything else: what messages show, users, chats


class WriteTurns:
    def __init__(self) -> None:
        self._busy = False
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._serials = itertools.count()

    @asynccontextmanager
    async def turn(self, priority: int = RECORD) -> AsyncIterator[None]:
        if self._busy:
            granted = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (priority, next(self._serials), granted))
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._pass_on()  # the turn was handed over as we were cancelled
                raise
        self._busy = True
        try:
            yield
        finally:
            self._pass_on()

    def _pass_on(self) -> None:
        """The next waiter (most urgent, then first come) gets the turn; the connection stays busy."""
        while self._waiting:
            _, _, granted = heapq.heappop(self._waiting)
            if not granted.done():
                granted.set_result(None)
                return
        self._busy = False
