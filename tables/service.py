"""The table service: one table per chat (or forum topic), one lock per table, and a class per
job over one core.

The core (tables/table_core.py) locks, loads and persists a table and arms what its saved row
waits for; each job is a small class over it, reached as an attribute of the service:

- `lobby` (tables/lobbies.py): open a table, seat and unseat, consent, deal; cancel or end it;
  play again;
- `play` (tables/playing.py): a move, chosen under the lock from the table as committed, applied
  by the engine and committed with its events and request;
- `computers` (tables/computers.py): a computer seat's move, a computer taking a leaver's seat;
- `timekeeper` (tables/timekeeping.py): what each timer does when it fires; a restart's re-arming;
- `reachability` (tables/reachability.py): whose private chat the bot cannot write to;
- `migration` (tables/chat_migration.py): a group's tables moved to its supergroup, or ended when
  the chat closed to the bot;
- `messages` (tables/message_records.py): what each table message shows, as the publisher reports.

The service never waits for Telegram: the publisher takes changes from the feed, and reports back
what each message shows.
"""

from __future__ import annotations

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
from tables.table_core import TableCore, Timing
from tables.thinking import Thinker
from tables.timekeeping import Timekeeper
from tables.timers import Timers


class TableService(TableCore):
    """The core, and its jobs built over it (each job reaches only the core and the jobs it is given)."""

    def __init__(
        self,
        store: Store,
        feed: ChangeFeed,
        timing: Timing | None = None,
        job_queue: JobQueue | None = None,
        clock: Callable[[], float] = time.time,
        thinker: Thinker | None = None,
        metrics: Metrics = UNREAD,
    ) -> None:
        super().__init__(store, feed, timing or Timing(), clock, metrics)
        self.play = Play(self)
        self.computers = ComputerPlayers(self, self.play, thinker or Thinker())
        self.timekeeper = Timekeeper(self, self.play, self.computers)
        self.reachability = Reachability(self)
        self.migration = ChatMigration(self)
        self.messages = MessageRecords(self)
        self.lobby = Lobby(self)
        self.timers = Timers(job_queue, self.timekeeper.on_due, clock) if job_queue is not None else None
