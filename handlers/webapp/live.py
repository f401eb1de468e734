"""Live tables: who has the Mini App open on which table, and a push of every committed change to
their sockets.

The publisher tells the hub of each table it renders (`changed`, synchronous: it only marks the
connections of that table as behind and wakes their writers); each connection's own task builds
the reader's snapshot and sends it. A slow socket only delays itself: the service and the
publisher never wait for it, and a connection that is behind several changes sends the newest
once. While a player has a connection open for a table, the publisher leaves their chat hand
alone (`in_app`); when the last one closes, the hub asks the publisher to catch the chat up.

A user has at most MAX_PER_USER sockets open: every change builds a snapshot for each, so a
newer one ends the oldest, whose page is told why (and does not reconnect by itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from tables.models import Loaded

log = logging.getLogger(__name__)

PING_SECONDS = 25.0
# Two devices on two tables each; a page that reloads closes its old socket first.
MAX_PER_USER = 4


class Connection:
    """One open socket: its reader, its table, and the newest change not yet sent."""

    def __init__(
        self,
        table_id: int,
        user_id: int,
        send: Callable[[Loaded | None], Awaitable[None]],
        displaced: Callable[[], Awaitable[None]],
    ):
        self.table_id = table_id
        self.user_id = user_id
        self._send = send
        # Ends the socket, telling its page why, when the user's newer sockets displace it.
        self._displaced = displaced
        self._latest: Loaded | None = None
        self._behind = False
        self._wake = asyncio.Event()
        self.closed = False
        self.displacing = False

    def displace(self) -> None:
        """Too many sockets of this user: this one, among the oldest, ends."""
        self.displacing = True
        self._wake.set()

    def push(self, loaded: Loaded | None) -> None:
        self._latest = loaded if loaded is not None else self._latest
        self._behind = True
        self._wake.set()

    async def run(self, ping: Callable[[], Awaitable[None]], ping_seconds: float = PING_SECONDS) -> None:
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
            if self._behind:
                self._behind = False
                latest, self._latest = self._latest, None
                try:
                    await self._send(latest)
                except ConnectionResetError:  # the page went: the socket's reader ends the connection
                    return
                except Exception:  # one failed snapshot must not silence the socket for good
                    log.exception("could not send table %s to user %s's app", self.table_id, self.user_id)


class LiveTables:
    def __init__(self) -> None:
        self._connections: dict[int, set[Connection]] = {}
        # Each user's connections, oldest first.
        self._by_user: dict[int, list[Connection]] = {}
        # A branch of the tree the player opened in the app: (table, user) -> (keyboard, node).
        self.opened: dict[tuple[int, int], tuple[int, int]] = {}
        # Called when a player's last connection to a table closes (the chat catches up).
        self.on_leave: Callable[[int, int], None] = lambda table_id, user_id: None

    def add(self, connection: Connection) -> None:
        """Count the connection in; the user's oldest ones beyond MAX_PER_USER are displaced."""
        self._connections.setdefault(connection.table_id, set()).add(connection)
        mine = self._by_user.setdefault(connection.user_id, [])
        mine.append(connection)
        staying = [found for found in mine if not found.displacing]
        for oldest in staying[: max(0, len(staying) - MAX_PER_USER)]:
            oldest.displace()

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
        if not self.in_app(connection.table_id, connection.user_id):
            self.opened.pop((connection.table_id, connection.user_id), None)
            self.on_leave(connection.table_id, connection.user_id)

    def in_app(self, table_id: int, user_id: int) -> bool:
        return any(connection.user_id == user_id for connection in self._connections.get(table_id, ()))

    def changed(self, table_id: int, loaded: Loaded | None) -> None:
        """A committed change of the table: every open app on it is behind now."""
        for connection in self._connections.get(table_id, ()):
            connection.push(loaded)

    def count(self) -> int:
        return sum(len(found) for found in self._connections.values())

    def stats(self) -> dict[str, Any]:
        return {"tables": len(self._connections), "connections": self.count()}
