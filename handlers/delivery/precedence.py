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
import time
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import SimpleUpdateProcessor

from tables.log_context import about
from tables.metrics import UNREAD, Metrics

# Longest a pass or a delivery yields to updates (seconds): a busy bot still shows its moves.
MAX_WAIT = 0.25


class UpdatesFirst(SimpleUpdateProcessor):
    def __init__(self, max_concurrent_updates: int = 256, metrics: Metrics = UNREAD):
        super().__init__(max_concurrent_updates)
        self._handling = 0
        self._quiet = asyncio.Event()  # set while no update is being handled
        self._quiet.set()
        self.metrics = metrics

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        self._handling += 1
        self._quiet.clear()
        began = time.monotonic()
        if isinstance(update, Update) and update.effective_chat is not None:
            about(chat_id=update.effective_chat.id)  # this update's task: its log lines name the chat
        try:
            await coroutine
        finally:
            self._handling -= 1
            if not self._handling:
                self._quiet.set()
            kind = update_kind(update)
            self.metrics.updates.labels(kind).inc()
            if kind == "callback_query":
                # A press is answered inside its handler: its end is when the presser saw the answer.
                self.metrics.press(time.monotonic() - began)

    async def quiet(self) -> None:
        """Return once no update is being handled, or after `MAX_WAIT` seconds."""
        if self._quiet.is_set():
            return
        try:
            await asyncio.wait_for(self._quiet.wait(), MAX_WAIT)
        except TimeoutError:
            pass


def update_kind(update: object) -> str:
    """What an update is, for the figures: its type, and "command" for a message that is one."""
    if not isinstance(update, Update):
        return "other"
    if update.message is not None and (update.message.text or "").startswith("/"):
        return "command"
    for kind in ("message", "callback_query", "poll_answer", "my_chat_member", "chat_member", "edited_message", "poll"):
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


async def at_once() -> None:
    """Yield to nothing: a publisher or courier used without an update processor (tests)."""
