"""Keeps every chat showing its tables as committed: take a change, render, send the difference.

The publisher takes changed tables from the service's change feed, renders every message the
table owns (handlers/delivery/screens.py), compares each with what its chat shows, and gives the
courier a delivery for each one that differs. Deliveries report what the message shows now back
to the table service, which records it under the table's lock; when all of a change's
deliveries are done, the table is marked published up to that revision (every saved change has one). A restart republishes
only tables that were not (their revision is ahead of what was published), and sends only what
differs from what the database says is shown.

A delivery that fails for a reason that may pass (a 5xx, a timeout, a dropped connection) is
tried again by the table's next pass, which comes after a jittered backoff (one pending per
table, RETRY_SECONDS doubling up to RETRY_CAP_SECONDS). One that fails because the chat is gone
for the bot (removed, blocked, deleted, upgraded to a supergroup) is never tried again: the
chat keeper (handlers/delivery/chat_keeper.py) is told, once.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

from telegram.error import ChatMigrated, TelegramError
from telegram.ext import ExtBot

from handlers.delivery.courier import Courier
from handlers.delivery.flood import BACKGROUND, POST, Rate, Ticket
from handlers.delivery.outbox import Outbox, chat_gone
from handlers.delivery.precedence import at_once
from handlers.delivery.screens import NOTICE, POLL, POST_ONCE, Panel, Readers, Screen, table_screens, user_of_slot
from handlers.i18n import reader_translator, translator
from tables.feed import ChangeFeed
from tables.models import LIVE, Loaded, Shown, TableRow
from tables.service import TableService

log = logging.getLogger(__name__)

# An edit's new digest is written with its pass; when the pass still waits (a group's table for
# its flood budget), it is written on its own this soon after the edit, so that a restart never
# sends an edit the chat already shows ("message is not modified").
SAVE_EDITS_SECONDS = 0.05
# The first retry of a table whose delivery failed; each failure in a row doubles it, up to the
# cap, and a random part of it is taken off (so that tables failed together do not retry together).
RETRY_SECONDS = 1.0
RETRY_CAP_SECONDS = 60.0
REMOVED = "removed"


class ChatWatch(Protocol):
    """Told when a chat is closed to the bot or moved (handlers/delivery/chat_keeper.py)."""

    async def lost(self, chat_id: int, reason: str) -> None: ...

    async def moved(self, old: int, new: int) -> None: ...

    async def user_unreachable(self, user_id: int, table_id: int | None = None) -> None: ...


class Branches(Protocol):
    """The branch each player has open in their keyboard (handlers/moves.py OpenBranches)."""

    def of_table(self, table_id: int) -> Mapping[int, tuple[int, int]]: ...


class Presence(Protocol):
    """Who has the Mini App open on which table (handlers/webapp/live.py LiveTables)."""

    def in_app(self, table_id: int, user_id: int) -> bool: ...


class _Paid:
    """The gate's ticket of a delivery: its first call uses it, any further call waits its turn."""

    def __init__(self, ticket: Ticket):
        self._ticket: Ticket | None = ticket

    def rate(self, priority: int) -> Rate:
        ticket, self._ticket = self._ticket, None
        return Rate(priority, ticket)


def _removal(slot: str) -> str | None:
    """What becomes of a message whose slot is gone: notices are deleted, polls stopped."""
    if slot == "poll":
        return POLL
    if slot.startswith(("nudge:", "unreachable:")):
        return NOTICE
    return None


@dataclass
class _TableRecord:
    """What the publisher keeps of one table between its passes. It is made on the table's first
    use and dropped as a whole once the table is finished and published with nothing under way,
    so that a long-running bot keeps memory for live tables only."""

    shown: dict[str, Shown] | None = None
    """What each of the table's messages shows, by slot (None: not read from the database yet):
    a pass sends only what differs from it."""
    queued: dict[str, str] = field(default_factory=dict)
    """The digest each slot will show once its queued delivery is done (REMOVED: it goes), so that
    a pass queues nothing a delivery already on its way will show."""
    fresh: set[str] = field(default_factory=set)
    """Slots to send anew at the bottom of their chat (/table, /hand), the old message deleted."""
    panels: dict[int, tuple[int, Panel]] = field(default_factory=dict)
    """Panels that stand in for a player's hand while they use them (Lopti's rule builder): user
    -> (table version it belongs to, renderer of its text and keyboard)."""
    running: asyncio.Task[None] | None = None
    """The table's pass under way: one pass per table at a time."""
    again: bool = False
    """A change came while the pass ran: another pass follows it, rendering the newest state."""
    again_with: Loaded | None = None
    """The state that following pass renders, if the change brought it (None: it reads the table)."""
    unsaved: dict[str, Shown] = field(default_factory=dict)
    """Edited messages whose new digest is not written yet: it is written with their pass, in one
    write (or on its own soon after, see `saving`)."""
    saving: asyncio.Task[None] | None = None
    """The write of the unsaved edits that does not wait for the pass (see `Publisher._save_soon`)."""
    writing: bool = False
    """That write is under way, so it can no longer be called off: the pass waits for it."""
    published: int = -1
    """The revision last recorded as published: a pass that changed no message of a published
    revision writes nothing."""
    failures: set[str] = field(default_factory=set)
    """Slots whose last delivery failed for a reason worth retrying (a network error): their pass
    is not published, and the table is tried again."""
    moment: tuple[tuple[int, bool], float] | None = None
    """The clock the table is drawn at while it stays at one revision (see `Publisher._moment`)."""
    retry: asyncio.Task[None] | None = None
    """The table's pending retry: one per table, whatever failed."""
    attempts: int = 0
    """How many passes failed in a row: the retry's backoff doubles with each."""

    def forget(self) -> None:
        """What is remembered of the table's messages goes; what is under way stays."""
        self.shown, self.published, self.moment, self.attempts = None, -1, None, 0
        self.queued, self.fresh, self.panels, self.failures = {}, set(), {}, set()


class Publisher:
    def __init__(
        self,
        bot: ExtBot[Rate],
        service: TableService,
        feed: ChangeFeed,
        courier: Courier,
        bot_username: Callable[[], str],
        group_language: str,
        branches: Branches,
        clock: Callable[[], float] = time.time,
        yield_to: Callable[[], Awaitable[None]] = at_once,
    ):
        # Every call to Telegram the publisher makes, and what its errors mean.
        self.outbox = Outbox(bot)
        self.service = service
        self.feed = feed
        self.courier = courier
        self.bot_username = bot_username
        self.group_language = group_language
        self.clock = clock
        # Waits while updates are being handled (handlers/delivery/precedence.py): presses go first.
        self.yield_to = yield_to
        # One record per table the publisher has in hand (see `_TableRecord`).
        self._tables: dict[int, _TableRecord] = {}
        self.branches = branches
        # Passes' confirmations still waiting for their deliveries (see `_confirm`).
        self._confirming: set[asyncio.Task[None]] = set()
        self._pump: asyncio.Task[None] | None = None
        self.retry_seconds = RETRY_SECONDS
        self.retry_cap_seconds = RETRY_CAP_SECONDS
        self.watch: ChatWatch | None = None
        # Open Mini Apps (when the app is on): a player who has the app open on a table gets no
        # chat hand edits.
        self.presence: Presence | None = None
        # The Mini App's URL and short name (None: the app is off), for the chats' buttons.
        self.webapp_url: str | None = None
        self.webapp_name: str | None = None

    # ----- running ------------------------------------------------------------------------
    def start(self) -> None:
        self._pump = asyncio.get_running_loop().create_task(self._take_changes())

    async def stop(self, timeout: float) -> bool:
        """Deliver what is queued (at most `timeout` seconds), then stop taking changes."""
        delivered = await self.settle(timeout)
        if self._pump is not None:
            self._pump.cancel()
        for record in list(self._tables.values()):
            for task in (record.retry, record.running, record.saving):
                if task is not None:
                    task.cancel()
        for task in list(self._confirming):
            task.cancel()
        return delivered

    async def settle(self, timeout: float = 30.0, private_only: bool = False) -> bool:
        """Wait until every change is rendered and delivered (tests and shutdown); with
        `private_only`, until the players' private chats show it (groups may wait for their
        flood budget)."""
        deadline = time.monotonic() + timeout
        while self.busy(private_only):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if passes := self._passes():
                await asyncio.wait(passes, timeout=left)
            elif self.courier.pending(private_only):
                if not await self.courier.drain(left, private_only):
                    return False
            elif self._confirming and not private_only:
                await asyncio.wait(list(self._confirming), timeout=left)
            else:
                await asyncio.sleep(0)
        return True

    flush = settle

    def busy(self, private_only: bool = False) -> bool:
        """Changes waiting to be rendered or delivered (to private chats only, if asked: a
        group's may wait a while for its flood budget). For tests that wait for a quiet bot."""
        rendering = self.feed.pending() or any(record.running or record.again for record in self._tables.values())
        return bool(rendering or self.courier.pending(private_only) or (self._confirming and not private_only))

    def remembered(self) -> set[int]:
        """The tables the publisher keeps a record of (for tests: memory follows what is live)."""
        return set(self._tables)

    def _passes(self) -> list[asyncio.Task[None]]:
        return [record.running for record in self._tables.values() if record.running is not None]

    def _table(self, table_id: int) -> _TableRecord:
        """The table's record, made on its first use."""
        record = self._tables.get(table_id)
        if record is None:
            record = self._tables[table_id] = _TableRecord()
        return record

    def _drop_if_idle(self, table_id: int) -> None:
        """A record that remembers nothing and has nothing under way goes."""
        if self._tables.get(table_id) == _TableRecord():
            del self._tables[table_id]

    async def _take_changes(self) -> None:
        while True:
            table_id, loaded = await self.feed.take()
            record = self._table(table_id)
            if record.running is not None:
                # One pass per table at a time; the next renders the newest state.
                record.again = True
                record.again_with = loaded if loaded is not None else record.again_with
                continue
            self._begin(table_id, loaded)

    def _begin(self, table_id: int, loaded: Loaded | None) -> None:
        task = asyncio.get_running_loop().create_task(self._publish(table_id, loaded))
        self._table(table_id).running = task
        task.add_done_callback(lambda _task: self._ended(table_id))

    def _ended(self, table_id: int) -> None:
        record = self._table(table_id)
        record.running = None
        if record.again:
            loaded, record.again, record.again_with = record.again_with, False, None
            self._begin(table_id, loaded)
        else:
            self._drop_if_idle(table_id)

    # ----- requests from handlers -----------------------------------------------------------
    def refresh(self, table_id: int) -> None:
        self.feed.put(table_id)

    def repost(self, table_id: int, slot: str) -> None:
        """Send the message anew at the bottom of its chat, and delete the old one."""
        self._table(table_id).fresh.add(slot)
        self.feed.put(table_id)

    def open_panel(self, table_id: int, user_id: int, version: int, panel: Panel) -> None:
        """Show `panel` in place of the player's hand while the table stays at `version`."""
        self._table(table_id).panels[user_id] = (version, panel)
        self.feed.put(table_id)

    # ----- one pass over a table -----------------------------------------------------------
    async def _publish(self, table_id: int, loaded: Loaded | None) -> None:
        """Render the table and queue what differs; the pass does not wait for the deliveries
        (a group's paced table edit must never hold up a player's hand)."""
        try:
            await self.yield_to()
            loaded = loaded or await self.service.load(table_id)
            if loaded is None:
                return
            table = loaded.table
            people = [seat.user_id for seat in table.seats if not seat.is_computer] + table.leavers
            readers = await self.readers(table.chat_id, people)
            opened = self.branches.of_table(table_id)
            record = self._table(table_id)
            panels = {user: panel for user, (version, panel) in record.panels.items() if version == table.version}
            # The app shows these players the table: their chat hands are not even drawn (the
            # table's revision then stays unpublished, so that a restart catches them up).
            resting = [user for user in people if self.presence is not None and self.presence.in_app(table_id, user)]
            screens = table_screens(loaded, readers, self._moment(table), opened, panels, resting)
            shown = await self._shown_of(table_id)
            record = self._table(table_id)  # the same one, unless a finished table was forgotten meanwhile
            waits = []
            held = bool(resting)
            for user_id in resting:
                screens.pop(f"hand:{user_id}", None)  # a leaver's "you left" waits too
            for slot, screen in screens.items():
                key = (table_id, slot)
                current = shown.get(slot)
                # What the message will show once queued deliveries are done.
                target = record.queued.get(slot, current.digest if current is not None else None)
                if target == screen.digest and slot not in record.fresh:
                    continue
                record.queued[slot] = screen.digest
                deliver = partial(self._deliver, table_id, slot, screen)
                waits.append(self.courier.send(screen.chat_id, key, screen.priority, deliver))
            for slot, current in shown.items():
                key = (table_id, slot)
                if slot not in screens and _removal(slot) is not None and record.queued.get(slot) != REMOVED:
                    record.queued[slot] = REMOVED
                    remove = partial(self._remove, table_id, slot)
                    priority = POST if current.chat_id < 0 else BACKGROUND
                    waits.append(self.courier.send(current.chat_id, key, priority, remove))
            self._confirm(table_id, table.revision, table.status in LIVE, list(screens), waits, held)
        except Exception:
            log.exception("could not publish table %s", table_id)
            self._retry_later(table_id)

    def _confirm(
        self,
        table_id: int,
        revision: int,
        live: bool,
        slots: list[str],
        waits: list[asyncio.Future[None]],
        held: bool = False,
    ) -> None:
        """Once this revision's deliveries are done, mark it published (or try again later).
        `held`: a chat hand was left behind for the Mini App, so the revision is not published
        (a restart, even after a crash, then republishes the table and the hand catches up)."""

        async def confirm() -> None:
            await asyncio.gather(*waits)
            # Looked up again after each wait: a finished table's record may have gone meanwhile.
            record = self._table(table_id)
            if record.failures.intersection(slots):
                self._retry_later(table_id)
                return
            record.attempts = 0
            saving, record.saving = record.saving, None
            if saving is not None and record.writing:
                await saving  # its write lands first
            elif saving is not None:
                saving.cancel()  # this pass's write takes its edits
            record = self._table(table_id)
            unsaved, record.unsaved = record.unsaved, {}
            if held:
                if unsaved:  # what the other messages show now; the revision stays behind
                    await self.yield_to()
                    await self.service.messages.record_screens(table_id, unsaved, 0)
            elif unsaved or record.published < revision:
                await self.yield_to()  # a press's move waits for no screen's write
                await self.service.messages.record_screens(table_id, unsaved, revision)
                record = self._table(table_id)
                record.published = max(revision, record.published)
            record = self._table(table_id)
            if not live and not record.again and record.running is None:
                self._forget(table_id)

        task = asyncio.get_running_loop().create_task(confirm())
        self._confirming.add(task)
        task.add_done_callback(self._confirming.discard)

    def _moment(self, table: TableRow) -> float:
        """The clock a table is drawn at: fixed while its revision is, so that a pass no change
        caused (a refused press, a marked card) draws the group's table as it shows it; its
        countdown says the time left when that revision was first drawn."""
        now = self.clock()
        key = (table.revision, table.paused_until is not None and now < table.paused_until)
        record = self._table(table.table_id)
        if record.moment is not None and record.moment[0] == key:
            return record.moment[1]
        record.moment = (key, now)
        return now

    def _retry_later(self, table_id: int) -> None:
        """Publish the table again after a backoff; one pending retry per table, whatever failed."""
        record = self._table(table_id)
        if record.retry is not None:
            return
        attempt = record.attempts
        record.attempts = attempt + 1
        delay = min(self.retry_cap_seconds, self.retry_seconds * 2**attempt) * random.uniform(0.5, 1.0)

        async def again() -> None:
            await asyncio.sleep(delay)
            self.feed.put(table_id)

        task = asyncio.get_running_loop().create_task(again())
        record.retry = task
        task.add_done_callback(lambda ended: self._retried(table_id, ended))

    def _retried(self, table_id: int, ended: asyncio.Task[None]) -> None:
        record = self._tables.get(table_id)
        if record is not None and record.retry is ended:
            record.retry = None
            self._drop_if_idle(table_id)

    def retrying(self) -> int:
        """Tables waiting for a retry (for tests and drills that wait for convergence)."""
        return sum(record.retry is not None for record in self._tables.values())

    def saving(self) -> int:
        """Tables whose edits are being written apart from their pass (for tests that wait for
        what the chats show to be on disk)."""
        return sum(record.saving is not None for record in self._tables.values())

    def chat_moved(self, table_ids: list[int]) -> None:
        """These tables moved to another chat (a group upgraded to a supergroup): what this process
        remembers of their messages goes, and each is published anew from the database."""
        for table_id in table_ids:
            record = self._tables.get(table_id)
            if record is not None:
                record.unsaved = {}
                record.again_with = None  # the pass after the running one reads the table again
                self._forget(table_id)
            self.feed.put(table_id)

    def _forget(self, table_id: int) -> None:
        """A finished table's memory goes: a long-running bot keeps caches for live tables only.
        Its record goes as a whole unless something is still under way for it."""
        record = self._tables.get(table_id)
        if record is not None:
            record.forget()
            self._drop_if_idle(table_id)

    async def readers(self, chat_id: int, user_ids: list[int]) -> Readers:
        languages = await self.service.store.languages_of([*user_ids, chat_id] if chat_id > 0 else user_ids)
        if chat_id > 0:  # a practice table: its "group" is the player's private chat, in their language
            group = reader_translator(languages.get(chat_id), place=self.group_language)
        else:
            group = translator(await self.service.store.chat_language(chat_id) or self.group_language)
        users = {user_id: reader_translator(language, place=group.language) for user_id, language in languages.items()}
        return Readers(group, users, self.bot_username(), self.webapp_url, self.webapp_name)

    async def _shown_of(self, table_id: int) -> dict[str, Shown]:
        shown = self._table(table_id).shown
        if shown is None:
            shown = self._table(table_id).shown = await self.service.messages.screens(table_id)
        return shown

    async def _record(self, table_id: int, slot: str, shown: Shown | None) -> None:
        """What a message shows now. A new message (or one gone) is recorded at once, so that a
        crash can never make us send it twice; an edit's new digest is recorded with the pass
        it belongs to, in one write (see `_confirm`)."""
        record = self._table(table_id)
        if record.shown is None:
            record.shown = {}
        before = record.shown.get(slot)
        if shown is None:
            record.shown.pop(slot, None)
        else:
            record.shown[slot] = shown
        if before is not None and shown is not None and before.message_id == shown.message_id:
            record.unsaved[slot] = shown
            self._save_soon(table_id)
            return
        record.unsaved.pop(slot, None)
        await self.service.messages.record_screen(table_id, slot, shown)

    def _save_soon(self, table_id: int) -> None:
        """Write the table's edits made so far unless their pass does it first (usually it does:
        its last delivery follows within milliseconds, and one write serves the whole pass)."""
        if self._table(table_id).saving is not None:
            return
        task = asyncio.get_running_loop().create_task(self._save(table_id))
        self._table(table_id).saving = task
        task.add_done_callback(lambda ended: self._saved(table_id, ended))

    async def _save(self, table_id: int) -> None:
        await asyncio.sleep(SAVE_EDITS_SECONDS)
        await self.yield_to()
        record = self._table(table_id)
        record.writing = True
        try:
            unsaved, record.unsaved = record.unsaved, {}
            if unsaved:
                await self.service.messages.record_screens(table_id, unsaved, 0)
        finally:
            if (current := self._tables.get(table_id)) is not None:
                current.writing = False

    def _saved(self, table_id: int, ended: asyncio.Task[None]) -> None:
        record = self._tables.get(table_id)
        if record is not None and record.saving is ended:
            record.saving = None
            self._drop_if_idle(table_id)

    # ----- deliveries (run by the courier once the flood gate let them through) ---------------
    async def _deliver(self, table_id: int, slot: str, screen: Screen, ticket: Ticket) -> None:
        paid = _Paid(ticket)
        record = self._table(table_id)
        if record.queued.get(slot) == screen.digest:
            del record.queued[slot]
        current = (await self._shown_of(table_id)).get(slot)
        record = self._table(table_id)
        fresh = slot in record.fresh
        record.fresh.discard(slot)
        record.failures.discard(slot)
        if current is not None and current.digest == screen.digest and not fresh:
            return  # a later change brought the message back to what it shows
        try:
            if screen.kind == POLL:
                await self._deliver_poll(table_id, slot, screen, current, paid)
                return
            message_id = current.message_id if current is not None else None
            if screen.kind == POST_ONCE or fresh:
                message_id = None
            if message_id is not None:
                message_id = await self.outbox.edit(screen, message_id, paid.rate(screen.priority))
            if message_id is None:
                message_id = await self.outbox.send(screen, paid.rate(screen.priority))
                if current is not None and current.message_id is not None and screen.kind != POST_ONCE:
                    # The message moved to the bottom of the chat: the old one goes.
                    await self.outbox.delete(current.chat_id, current.message_id, paid.rate(BACKGROUND))
            await self._record(table_id, slot, Shown(screen.chat_id, message_id, screen.digest))
        except ChatMigrated as error:
            if self.watch is not None:
                await self.watch.moved(screen.chat_id, int(error.new_chat_id))
        except TelegramError as error:
            if not chat_gone(error):
                self._table(table_id).failures.add(slot)
                raise
            user_id = user_of_slot(slot)
            if screen.chat_id > 0:
                # A private chat: its user is marked unreachable (never given up on: a /start
                # or an unblock opens it again).
                if user_id is None:  # a practice table's message: nothing to try again
                    await self._record(table_id, slot, Shown(screen.chat_id, None, screen.digest))
                if self.watch is not None:
                    await self.watch.user_unreachable(screen.chat_id, table_id if user_id is not None else None)
            elif self.watch is not None:
                await self.watch.lost(screen.chat_id, str(error))
            else:
                log.warning("cannot write to chat %s: %s", screen.chat_id, error)
                await self._record(table_id, slot, Shown(screen.chat_id, None, screen.digest))

    async def _deliver_poll(self, table_id: int, slot: str, screen: Screen, current: Shown | None, paid: _Paid) -> None:
        assert screen.poll is not None
        if current is not None and current.message_id is not None:
            await self._stop_poll(table_id, current, paid)
        message_id, poll_id = await self.outbox.send_poll(screen, paid.rate(screen.priority))
        await self.service.messages.record_poll(poll_id, table_id, screen.poll.key, screen.chat_id, message_id)
        await self._record(table_id, slot, Shown(screen.chat_id, message_id, screen.digest))

    async def _stop_poll(self, table_id: int, shown: Shown, paid: _Paid) -> None:
        assert shown.message_id is not None
        await self.service.messages.close_polls(table_id)
        await self.outbox.stop_poll(shown.chat_id, shown.message_id, paid.rate(POST))

    async def _remove(self, table_id: int, slot: str, ticket: Ticket) -> None:
        paid = _Paid(ticket)
        queued = self._table(table_id).queued
        if queued.get(slot) == REMOVED:
            del queued[slot]
        current = (await self._shown_of(table_id)).get(slot)
        if current is None:
            return
        if current.message_id is not None:
            if _removal(slot) == POLL:
                await self._stop_poll(table_id, current, paid)
            else:
                await self.outbox.delete(current.chat_id, current.message_id, paid.rate(BACKGROUND))
        await self._record(table_id, slot, None)
