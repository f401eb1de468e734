"""Flood accounting like Telegram's: sliding windows per group and bot-wide, 429s, bans, statistics.

Every chat-bound call that sends or changes a message (COUNTED_METHODS) is accounted, always, so
a benchmark can read how busy the bot was even without limits; a call counts whatever the method
then answers (the fake assumes Telegram counts requests, not successes).  With ``enforce`` on, Telegram's
limits are applied: more than GROUP_LIMIT counted calls to one group in any sliding GROUP_WINDOW,
or more than BOT_LIMIT bot-wide in any sliding BOT_WINDOW, is answered 429 with ``retry_after``.
``second`` is how long Telegram's second lasts on ``clock``: 1 for the real thing, less for tests
that keep Telegram's limits on a faster clock (the bot's ``KARATA_TELEGRAM_SECOND``, the same
value); windows and ``retry_after`` are counted in Telegram's seconds.  After a 429 for a chat,
every call to that chat before ``retry_after`` has passed is a ban violation and is answered 429
again.  A refused call is not delivered: it takes no room in the windows.  ``inject`` adds seeded
random 429s (drills), which ban the chat the same way.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Callable

from fakeapi.errors import too_many_requests

COUNTED_METHODS = {
    "sendmessage",
    "editmessagetext",
    "editmessagereplymarkup",
    "editmessagecaption",
    "deletemessage",
    "deletemessages",
    "sendpoll",
    "stoppoll",
    "senddocument",
}
GROUP_LIMIT, GROUP_WINDOW = 20, 60.0
BOT_LIMIT, BOT_WINDOW = 30, 1.0

# Causes of a 429, the keys of FloodStats.refused.
GROUP_CAUSE, BOT_CAUSE, BAN_CAUSE, INJECTED_CAUSE = "group_window", "bot_window", "ban", "injected"


@dataclass(frozen=True)
class BanViolation:
    """A call to a chat made while a 429's retry_after for that chat had not yet passed."""

    chat_id: int
    method: str
    at: float
    banned_until: float


@dataclass(frozen=True)
class FloodStats:
    calls: int  # counted calls received, refused ones included
    delivered: int  # counted calls not refused with 429
    calls_per_chat: dict[int, int]
    delivered_per_chat: dict[int, int]
    refused: dict[str, int]  # 429s by cause: "group_window", "bot_window", "ban", "injected"
    busiest_minute: dict[int, int]  # group chat -> most calls delivered in any sliding 60 s
    busiest_second: int  # most calls delivered bot-wide in any sliding 1 s
    ban_violations: list[BanViolation] = field(default_factory=list)

    @property
    def total_429(self) -> int:
        return sum(self.refused.values())

    @property
    def violations(self) -> int:
        """Calls refused because the bot broke a limit or a ban (injected 429s are not its fault)."""
        return self.refused[GROUP_CAUSE] + self.refused[BOT_CAUSE] + self.refused[BAN_CAUSE]


class FloodControl:
    def __init__(self, clock: Callable[[], float], enforce: bool = False, second: float = 1.0) -> None:
        self.clock = clock
        self.enforce = enforce
        self.second = second
        self.group_window = GROUP_WINDOW * second
        self.bot_window = BOT_WINDOW * second
        self._group_recent: dict[int, deque[float]] = {}  # delivered times within GROUP_WINDOW
        self._bot_recent: deque[float] = deque()  # delivered times within BOT_WINDOW
        self._banned_until: dict[int, float] = {}
        self._chat_floods: dict[int, int] = {}
        self._calls: Counter[int] = Counter()
        self._delivered: Counter[int] = Counter()
        self._refused: Counter[str] = Counter({c: 0 for c in (GROUP_CAUSE, BOT_CAUSE, BAN_CAUSE, INJECTED_CAUSE)})
        self._busiest_minute: dict[int, int] = {}
        self._busiest_second = 0
        self._ban_violations: list[BanViolation] = []
        self._inject_probability = 0.0
        self._inject_retry_after = 1
        self._rng = random.Random(0)

    def inject(self, probability: float, retry_after: int = 5, seed: int = 0) -> None:
        """From now on each counted call that would be delivered fails with 429 with ``probability``."""
        if not 0 <= probability <= 1 or retry_after < 1:
            raise ValueError("probability must be in [0, 1] and retry_after at least 1")
        self._inject_probability = probability
        self._inject_retry_after = int(retry_after)
        self._rng = random.Random(seed)

    def flood_chat(self, chat_id: int, retry_after: int) -> None:
        """The next counted call to ``chat_id`` gets a 429 ``retry_after``, and the chat is banned."""
        self._chat_floods[chat_id] = int(retry_after)

    def check(self, method: str, chat_id: int, is_group: bool) -> None:
        """Account one counted call to ``chat_id``; raise the 429 it gets, if any."""
        now = self.clock()
        self._calls[chat_id] += 1
        if chat_id in self._chat_floods:
            self._refuse(INJECTED_CAUSE, chat_id, now, self._chat_floods.pop(chat_id))
        until = self._banned_until.get(chat_id)
        if until is not None and now < until:
            self._ban_violations.append(BanViolation(chat_id, method, now, until))
            self._refuse(BAN_CAUSE, chat_id, now, self._telegram_seconds(until - now), ban=False)
        group = self._group_recent.setdefault(chat_id, deque()) if is_group else None
        if group is not None:
            while group and group[0] <= now - self.group_window:
                group.popleft()
        while self._bot_recent and self._bot_recent[0] <= now - self.bot_window:
            self._bot_recent.popleft()
        if self.enforce:
            if group is not None and len(group) >= GROUP_LIMIT:
                # Room comes back when the oldest call in the window leaves it.
                self._refuse(GROUP_CAUSE, chat_id, now, self._telegram_seconds(group[0] + self.group_window - now))
            if len(self._bot_recent) >= BOT_LIMIT:
                self._refuse(BOT_CAUSE, chat_id, now, 1)
        if self._inject_probability and self._rng.random() < self._inject_probability:
            self._refuse(INJECTED_CAUSE, chat_id, now, self._inject_retry_after)
        self._delivered[chat_id] += 1
        self._bot_recent.append(now)
        self._busiest_second = max(self._busiest_second, len(self._bot_recent))
        if group is not None:
            group.append(now)
            self._busiest_minute[chat_id] = max(self._busiest_minute.get(chat_id, 0), len(group))

    def in_window(self, chat_id: int) -> int:
        """Calls delivered to a group in the sliding minute that ends now."""
        now = self.clock()
        return sum(1 for at in self._group_recent.get(chat_id, ()) if at > now - self.group_window)

    def _telegram_seconds(self, duration: float) -> int:
        """A wait on the clock as Telegram says it: whole seconds of its own, at least one."""
        return max(1, math.ceil(round(duration / self.second, 6)))  # 0.1 / 0.1 may be 1.0000001

    def _refuse(self, cause: str, chat_id: int, now: float, retry_after: int, ban: bool = True) -> None:
        self._refused[cause] += 1
        if ban:
            self._banned_until[chat_id] = now + retry_after * self.second
        raise too_many_requests(retry_after)

    def stats(self) -> FloodStats:
        return FloodStats(
            calls=sum(self._calls.values()),
            delivered=sum(self._delivered.values()),
            calls_per_chat=dict(self._calls),
            delivered_per_chat=dict(self._delivered),
            refused=dict(self._refused),
            busiest_minute=dict(self._busiest_minute),
            busiest_second=self._busiest_second,
            ban_violations=list(self._ban_violations),
        )
