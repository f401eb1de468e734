"""The table service: one table per chat (or forum topic), one lock per table.

Every change follows the same path: lock, load, check, apply through the engine, commit (the
new state, its version, the action, its events and the request that made it, in one
transaction), arm the table's timers, and put the committed table on the change feed. The
service never waits for Telegram: the publisher takes changes from the feed, and reports back
what each message shows, which the service records under the table's lock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from telegram.ext import JobQueue

from tables.chat_migration import ChatMigration
from tables.computers import ComputerPlayers
from tables.feed import ChangeFeed
from tables.lobbies import Lobby
from tables.message_records import MessageRecords
from tables.metrics import UNREAD, Metrics
from tables.playing import Play
from tables.reachability import Reachability
from tables.store import Store
from tables.table_core import (
    TableCore,
    Timing,
)
from tables.thinking import Thinker
from tables.timekeeping import Timekeeper
from tables.timers import Timers

log = logging.getLogger(__name__)


class TableService(TableCore):
    def __init__(
        self,
        store: Store,
        feed: ChangeFeed,
        timing: Timing | None = None,
        job_queue: JobQueue | None = None,
        clock: Callable[[], float] = time.time,
        thinker: Thinker | None = None,
        metrics: Metrics = UNREAD,
    ):
        super().__init__(store, feed, timing or Timing(), clock, metrics)
        self.play = Play(self)
        self.computers = ComputerPlayers(self, self.play, thinker or Thinker())
        self.timekeeper = Timekeeper(self, self.play, self.computers)
        self.reachability = Reachability(self)
        self.migration = ChatMigration(self)
        self.messages = MessageRecords(self)
        self.lobby = Lobby(self)
        self.timers = Timers(job_queue, self.timekeeper.on_due, clock) if job_queue is not None else None
