"""The last minute of Bot API calls to each group, in a file beside the database, so that a bot
started again (even after `kill -9`) knows what the process before it sent, and keeps within a
group's 20 calls a minute across the restart (docs/DECISIONS.md, "Flood limits across a restart").

One line a call, `<unix time> <chat id>`, appended before the call goes out. No fsync: the writes
of a killed process are in the operating system already, and a machine that lost its power takes
longer than a minute to run the bot again. The file is rewritten with its last minute only at
start and every COMPACT_EVERY calls, so it stays small.
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

COMPACT_EVERY = 5000


class CallLog:
    def __init__(self, path: str | None, window: float, clock: Callable[[], float] = time.time):
        """`path` None keeps nothing (an in-memory database); `window` is how far back a call counts."""
        self.path = Path(path) if path else None
        self.window = window
        self.clock = clock
        self._recent: deque[tuple[float, int]] = deque()
        self._appended = 0
        self._failed = False

    def recent(self) -> list[tuple[int, float]]:
        """The calls of the window before now, oldest first, as (chat id, seconds ago)."""
        now = self.clock()
        self._recent = deque(sorted(self._read(now)))
        self._rewrite()
        return [(chat_id, now - at) for at, chat_id in self._recent]

    def record(self, chat_id: int) -> None:
        now = self.clock()
        self._recent.append((now, chat_id))
        while self._recent[0][0] <= now - self.window:
            self._recent.popleft()
        self._appended += 1
        if self._appended % COMPACT_EVERY == 0:
            self._rewrite()
        else:
            self._write(self.path, "a", f"{now:.3f} {chat_id}\n")

    def _read(self, now: float) -> list[tuple[float, int]]:
        if self.path is None or not self.path.exists():
            return []
        calls = []
        try:
            lines = self.path.read_text(encoding="ascii", errors="replace").splitlines()
        except OSError as error:
            self._failed_once(error)
            return []
        for line in lines:
            at, _, chat = line.partition(" ")
            try:
                # A clock set back since counts the call as now; a line cut by a kill is skipped.
                moment, chat_id = min(float(at), now), int(chat)
            except ValueError:
                continue
            if moment > now - self.window:
                calls.append((moment, chat_id))
        return calls

    def _rewrite(self) -> None:
        if self.path is None:
            return
        fresh = self.path.with_name(self.path.name + ".new")
        if self._write(fresh, "w", "".join(f"{at:.3f} {chat_id}\n" for at, chat_id in self._recent)):
            try:
                os.replace(fresh, self.path)
            except OSError as error:
                self._failed_once(error)

    def _write(self, path: Path | None, mode: str, text: str) -> bool:
        if path is None:
            return False
        try:
            with open(path, mode, encoding="ascii") as file:
                file.write(text)
        except OSError as error:
            self._failed_once(error)
            return False
        return True

    def _failed_once(self, error: OSError) -> None:
        # Deliveries go on without it; a restart may then exceed a group's minute (a 429 follows).
        if not self._failed:
            self._failed = True
            log.warning("cannot keep the log of recent group calls (%s): a restart may exceed a group's limit", error)
