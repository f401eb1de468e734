"""Live tables: who has the Mini App open on which table, and a push of every committed change to
their sockets.

The hub listens to the table service's change feed itself (tables/feed.py `Listener`): each
committed change (synchronously: it only marks the connections of that table as behind and wakes
their writers) is sent by each connection's own task, which builds the reader's snapshot. A slow
socket only delays itself: the service and the publisher never wait for it, and a connection
that is behind several changes sends the newest once. A change without its table (a publisher's
refresh: a language, a retry) shows nothing new at a new version, so it is not sent.

A page that moves gets the new table as the answer to its POST: while the move is under way its
reader's connections hold their sends (`hold`), and the revision it answered with is not sent
again to a reader's only connection (`release`). While a player has a connection open for a
table, the publisher leaves their chat hand alone (`in_app`); when the last one closes, the
table is put on the feed again, so that the chat catches up.

Changes are ordered by the table's revision, which steps with every saved change (the end of a
round's pause included, which makes no new version).

Watchers (watch.py) connect like players, marked `watcher`: they never hold a send (they do not
move) and their leaving catches no chat up; the players' pages are told how many watch.

A user has at most MAX_PER_USER sockets open: every change builds a snapshot for each, so a
newer one ends the oldest, whose page is told why (and does not reconnect by itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from tables.feed import ChangeFeed
from tables.models import Loaded

log = logging.getLogger(__name__)

PING_SECONDS = 25.0
# Two devices on two tables each; a page that reloads closes its old socket first.
MAX_PER_USER = 4


async def _at_once() -> None:
    """Yield to nothing (a hub without an update processor)."""


class Connection:
    """One open socket: its reader, its table, the newest change not yet sent, and the newest
    revision its page has (sent on the socket, or answered to the page's own move)."""

    def __init__(
        self,
        table_id: int,
        user_id: int,
        send: Callable[[Loaded], Awaitable[None]],
        displaced: Callable[[], Awaitable[None]],
        watcher: bool = False,
        told: Callable[[int], Awaitable[None]] | None = None,
    ):
        self.table_id = table_id
        self.user_id = user_id
        # A watcher sits at no seat: it never moves, and its chat has no hand to catch up.
        self.watcher = watcher
        self._send = send
        # Tells a player's page how many watch the table (None: a watcher's page is not told).
        self._told = told
        self._watchers: int | None = None
        # Ends the socket, telling its page why, when the user's newer sockets displace it.
        self._displaced = displaced
        self._latest: Loaded | None = None
        self._wake = asyncio.Event()
        self._held = 0
        self.shown = -1
        self.closed = False
        self.displacing = False

    def displace(self) -> None:
        """Too many sockets of this user: this one, among the oldest, ends."""
        self.displacing = True
        self._wake.set()

    def watched(self, count: int) -> None:
        """The table's number of watchers changed: the page is told (the latest, once)."""
        if self._told is not None:
            self._watchers = count
            self._wake.set()

    def push(self, loaded: Loaded) -> None:
        self._latest = loaded
        if not self._held:
            self._wake.set()

    def hold(self) -> None:
        self._held += 1

    def release(self, shown: int) -> None:
        self._held -= 1
        self.shown = max(self.shown, shown)
        if not self._held and self._latest is not None:
            self._wake.set()

    async def run(
        self,
        ping: Callable[[], Awaitable[None]],
        yield_to: Callable[[], Awaitable[None]] = _at_once,
        ping_seconds: float = PING_SECONDS,
    ) -> None:
        """Send each change (the newest when several came), and a ping when nothing happened."""
        while not self.closed:
            try:
                await asyncio.wait_for(self._wake.wait(), ping_seconds)
            except TimeoutError:
                await ping()
                continue
            self._wake.clear()
            if self.displacing:
                with contextlib.suppress(ConnectionResetError):  # the page went first
                    await self._displaced()
                return
            count, self._watchers = self._watchers, None
            if count is not None and self._told is not None:
                try:
                    await self._told(count)
                except ConnectionResetError:
                    return
            await yield_to()  # presses first: a snapshot can wait for a moment
            if self._held:
                continue  # its release wakes it again
            latest, self._latest = self._latest, None
            if latest is None or latest.table.revision <= self.shown:
                continue
            self.shown = latest.table.revision
            try:
                await self._send(latest)
            except ConnectionResetError:  # the page went: the socket's reader ends the connection
                return
            except Exception:  # one failed snapshot must not silence the socket for good
                log.exception("could not send table %s to user %s's app", self.table_id, self.user_id)


class LiveTables:
    def __init__(self, feed: ChangeFeed, yield_to: Callable[[], Awaitable[None]] = _at_once) -> None:
        self._connections: dict[int, set[Connection]] = {}
        # Each user's connections, oldest first.
        self._by_user: dict[int, list[Connection]] = {}
        self.feed = feed
        self.yield_to = yield_to
        feed.listen(self)

    def add(self, connection: Connection) -> None:
        """Count the connection in; the user's oldest ones beyond MAX_PER_USER are displaced."""
        self._connections.setdefault(connection.table_id, set()).add(connection)
        mine = self._by_user.setdefault(connection.user_id, [])
        mine.append(connection)
        staying = [found for found in mine if not found.displacing]
        for oldest in staying[: max(0, len(staying) - MAX_PER_USER)]:
            oldest.displace()
        if connection.watcher:
            self._tell_players(connection.table_id)
        elif self.watchers(connection.table_id):
            connection.watched(self.watchers(connection.table_id))

    def remove(self, connection: Connection) -> None:
        connection.closed = True
        mine = self._by_user.get(connection.user_id, [])
        if connection in mine:
            mine.remove(connection)
        if not mine:
            self._by_user.pop(connection.user_id, None)
        found = self._connections.get(connection.table_id)
        if found is None:
            return
        found.discard(connection)
        if not found:
            del self._connections[connection.table_id]
        if connection.watcher:
            self._tell_players(connection.table_id)
        elif not self.in_app(connection.table_id, connection.user_id):
            self.feed.put(connection.table_id)  # the player's chat hand catches up

    def in_app(self, table_id: int, user_id: int) -> bool:
        return any(
            connection.user_id == user_id and not connection.watcher
            for connection in self._connections.get(table_id, ())
        )

    def watchers(self, table_id: int) -> int:
        """How many people watch the table (a watcher with two windows counts once)."""
        return len({connection.user_id for connection in self._connections.get(table_id, ()) if connection.watcher})

    def _tell_players(self, table_id: int) -> None:
        count = self.watchers(table_id)
        for connection in self._connections.get(table_id, ()):
            if not connection.watcher:
                connection.watched(count)

    def changed(self, table_id: int, loaded: Loaded | None) -> None:
        """A committed change of the table: every open app on it is behind now."""
        if loaded is None:
            return
        for connection in self._connections.get(table_id, ()):
            connection.push(loaded)

    def hold(self, table_id: int, user_id: int) -> list[Connection]:
        """The reader's connections to the table, holding their sends while their move is made."""
        held = [
            connection
            for connection in self._connections.get(table_id, ())
            if connection.user_id == user_id and not connection.watcher
        ]
        for connection in held:
            connection.hold()
        return held

    def release(self, held: list[Connection], answered: int) -> None:
        """The move was answered with the table at revision `answered` (-1: refused). A reader's
        only page is the one that moved: it is not sent that revision again. (With several pages
        open, each still gets it: which of them moved is not known.)"""
        for connection in held:
            connection.release(answered if len(held) == 1 else -1)

    def count(self) -> int:
        return sum(len(found) for found in self._connections.values())

    def stats(self) -> dict[str, Any]:
        return {"tables": len(self._connections), "connections": self.count()}
