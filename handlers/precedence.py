"""Updates before publishing: a press is answered before the bot spends the loop on showing moves.

The bot has one event loop. Publishing a move (rendering the table and hands, sending them) is
most of its work, and asyncio runs ready callbacks first come, first served: a press that
arrives while ten tables are being published would wait behind all of it, each time its
handler awaits the database. `UpdatesFirst` is the update processor python-telegram-bot runs
every update through (concurrently, as before); it counts the updates under way, and the
publisher and the courier wait for none to be under way before they start a pass or a
delivery. A publish never waits long: after `MAX_WAIT` it goes anyway, so a stream of
updates cannot starve the tables.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram.ext import SimpleUpdateProcessor

# Longest a pass or a delivery yields to updates (seconds): a busy bot still shows its moves.
MAX_WAIT = 0.25


class UpdatesFirst(SimpleUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = 256):
        super().__init__(max_concurrent_updates)
        self._handling = 0
        self._quiet = asyncio.Event()  # set while no update is being handled
        self._quiet.set()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        self._handling += 1
        self._quiet.clear()
        try:
            await coroutine
        finally:
            self._handling -= 1
            if not self._handling:
                self._quiet.set()

    async def quiet(self) -> None:
        """Return once no update is being handled, or after `MAX_WAIT` seconds."""
        if self._quiet.is_set():
            return
        try:
            await asyncio.wait_for(self._quiet.wait(), MAX_WAIT)
        except TimeoutError:
            pass


async def at_once() -> None:
    """Yield to nothing: a publisher or courier used without an update processor (tests)."""
