"""Telegram's flood limits, kept before a call goes out rather than learnt from a 429.

`FloodGate` lets a chat-bound call go only when it fits: at most `per_second` calls bot-wide in
any sliding second, at most `group_per_minute` calls to one group in any sliding minute, never
to a chat inside a flood wait (`retry_after`) Telegram gave it. Waiting calls go in priority
order: the hand of the player whose turn it is first, then posts (round results, polls,
replies), then table edits, then the rest; a table edit that has waited `PATIENCE` seconds goes
with the most urgent, so that a busy bot whose players' hands fill every second still edits
each group's table. Table edits keep a reserve of the group's minute free for posts and are spaced
out, so their pace adapts to whatever else the group was sent.

`FloodLimiter` is the python-telegram-bot rate limiter that puts every API call through the
gate, and honours a 429 for the chat it came from (other chats are not held up).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import BaseRateLimiter

from tables.metrics import UNREAD, Metrics

log = logging.getLogger(__name__)

# Priorities, most urgent first.
URGENT = 0  # the private hand of a player who must act now
POST = 1  # a new message in a group (round results, a poll, a notice), replies to commands
TABLE = 2  # an edit of the group's table message: coalesced, the newest wins
BACKGROUND = 3  # other players' hands, nudges

# Methods that change what a chat shows count against the limits; reading and answering do not.
COUNTED_PREFIXES = ("send", "edit", "delete", "stop", "forward", "copy")
NOT_COUNTED = {"sendChatAction"}
# How long a table edit waits before it goes with the most urgent calls (seconds).
PATIENCE = 3.0
# Telegram measures windows on its side of the network: ours are a little longer.
SECOND = 1.05
MINUTE = 60.5


@dataclass(eq=False)
class Ticket:
    """One counted call: when it was let through, and when Telegram had surely seen it.

    Until the call's answer is back, its time is unknown to us (it may still be on its way to
    Telegram, whose clock counts arrivals): it counts as "now". Once it is answered it counts
    from that moment, which is no earlier than when Telegram received it, so our windows are
    never shorter than Telegram's whatever the network does in between."""

    chat_id: int
    at: float
    done: bool = False


@dataclass(frozen=True)
class Rate:
    """What a caller tells the limiter about one call (python-telegram-bot's `rate_limit_args`)."""

    priority: int = POST
    # The caller already passed the gate for this call (it waited for room before choosing
    # what to send, so that what goes out is the newest content).
    ticket: Ticket | None = None


@dataclass(eq=False)
class _Waiter:
    priority: int
    serial: int
    chat_id: int
    granted: asyncio.Future[Ticket]
    since: float = 0.0


def is_group(chat_id: int) -> bool:
    return chat_id < 0


class FloodGate:
    def __init__(
        self,
        per_second: int = 30,
        group_per_minute: int = 20,
        group_reserve: int = 2,
        clock: Callable[[], float] = time.monotonic,
        second: float | None = None,
        minute: float | None = None,
        patience: float | None = None,
        telegram_second: float = 1.0,
        metrics: Metrics = UNREAD,
    ):
        # `telegram_second`: how long Telegram's second lasts on `clock` (1; tests run Telegram's
        # limits faster with less). Every window and `retry_after` keeps its ratio.
        self.telegram_second = telegram_second
        self.per_second = per_second
        self.patience = PATIENCE * telegram_second if patience is None else patience
        self.group_per_minute = group_per_minute
        self.second = SECOND * telegram_second if second is None else second
        self.minute = MINUTE * telegram_second if minute is None else minute
        self.group_reserve = min(group_reserve, group_per_minute - 1)
        self.clock = clock
        self._bot: list[Ticket] = []
        self._groups: dict[int, list[Ticket]] = {}
        self._banned: dict[int, float] = {}
        self._waiters: list[_Waiter] = []
        self._serials = itertools.count()
        self._wake: asyncio.Event | None = None
        self._pump: asyncio.Task[None] | None = None
        self.metrics = metrics
        # Told of each group call before it goes out (bot/app.py keeps them across a restart).
        self.on_group_call: Callable[[int], None] = lambda chat_id: None

    def remember(self, calls: Iterable[tuple[int, float]]) -> None:
        """Calls the process before this one made, as (chat id, seconds ago): they count here."""
        now = self.clock()
        for chat_id, ago in calls:
            if is_group(chat_id):
                self._groups.setdefault(chat_id, []).append(Ticket(chat_id, now - ago, done=True))

    async def acquire(self, chat_id: int, priority: int = POST) -> Ticket:
        """Wait until a call to `chat_id` fits the limits; the ticket counts it. Give it back to
        `finished` when the call has been answered."""
        granted = asyncio.get_running_loop().create_future()
        waiter = _Waiter(priority, next(self._serials), chat_id, granted, self.clock())
        self._waiters.append(waiter)  # the pump orders them by `_turn` each time it grants
        self._kick()
        try:
            return await waiter.granted
        except asyncio.CancelledError:
            if waiter.granted.done() and not waiter.granted.cancelled():
                self.finished(waiter.granted.result())
            raise

    def finished(self, ticket: Ticket) -> None:
        """The call was answered (or never made): it counts from now."""
        if not ticket.done:
            ticket.at, ticket.done = self.clock(), True
            self._kick()

    def hurry(self, chat_id: int, priority: int) -> None:
        """A call waiting for `chat_id` became more urgent (the player it goes to is to act now)."""
        hurried = False
        for waiter in self._waiters:
            if waiter.chat_id == chat_id and waiter.priority > priority:
                waiter.priority = priority
                hurried = True
        if hurried:
            self._kick()

    def ban(self, chat_id: int, seconds: float) -> None:
        """Telegram asked us to wait `seconds` (its own) before writing to this chat again."""
        until = self.clock() + seconds * self.telegram_second
        self._banned[chat_id] = max(self._banned.get(chat_id, 0.0), until)
        self.metrics.flood_waits.inc()
        self.metrics.flood_wait_seconds.inc(seconds)
        log.warning("flood wait of %.0f s for chat %s", seconds, chat_id, extra={"chat_id": chat_id})
        self._kick()

    def waiting(self) -> int:
        """Calls waiting for room (the operator's queue depth)."""
        return len(self._waiters)

    # ----- the pump: grants waiting calls in priority order as room appears ------------------
    def _kick(self) -> None:
        if self._wake is not None:
            self._wake.set()
        if (self._pump is None or self._pump.done()) and self._waiters:
            self._wake = asyncio.Event()
            self._pump = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self._wake is not None
        while self._waiters:
            self._wake.clear()
            delay = self._grant_what_fits()
            if delay is None:
                continue
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            except TimeoutError:
                pass

    def _grant_what_fits(self) -> float | None:
        """Grant one waiter and return None, or return how long until one might fit."""
        now = self.clock()
        self._bot = self._recent(self._bot, self.second, now)
        bot_wait = self._wait(self._bot, self.per_second, self.second, now)
        soonest = float("inf")
        for waiter in sorted(self._waiters, key=lambda waiter: self._turn(waiter, now)):
            if waiter.granted.done():
                self._waiters.remove(waiter)
                return None
            chat_wait = self._chat_wait(waiter.chat_id, waiter.priority, now)
            if chat_wait <= 0 and bot_wait <= 0:
                self._waiters.remove(waiter)
                waiter.granted.set_result(self._count(waiter.chat_id, now))
                return None
            soonest = min(soonest, max(chat_wait, bot_wait))
            if chat_wait <= 0:
                break  # only the bot-wide second holds it up, and so it holds up everyone after it
        return max(0.001, soonest) if soonest != float("inf") else 0.05

    def _turn(self, waiter: _Waiter, now: float) -> tuple[int, int]:
        """A table edit that waited `patience` seconds goes with the most urgent: when players'
        hands use the whole bot-wide second, a group's table is still edited every few seconds.
        (Other players' hands may wait: they become urgent when it is their turn.)"""
        aged = waiter.priority == TABLE and now - waiter.since >= self.patience
        return (URGENT if aged else waiter.priority), waiter.serial

    def _chat_wait(self, chat_id: int, priority: int, now: float) -> float:
        wait = self._banned.get(chat_id, 0.0) - now
        if not is_group(chat_id):
            return wait
        calls = self._groups.get(chat_id)
        if not calls:
            return wait
        calls = self._groups[chat_id] = self._recent(calls, self.minute, now)
        limit = self.group_per_minute - (self.group_reserve if priority >= TABLE else 0)
        wait = max(wait, self._wait(calls, limit, self.minute, now))
        if priority >= TABLE and calls:
            # Spread table edits over the minute instead of spending it in one burst.
            latest = max(now if not call.done else call.at for call in calls)
            wait = max(wait, latest + self.minute / self.group_per_minute - now)
        return wait

    @staticmethod
    def _wait(calls: list[Ticket], limit: int, window: float, now: float) -> float:
        """How long until fewer than `limit` of `calls` are inside the window ending now."""
        if len(calls) < limit:
            return 0.0
        times = sorted(now if not call.done else call.at for call in calls)
        # The call that must leave the window; one still under way leaves it only once answered.
        leaving = times[len(times) - limit]
        return leaving + window - now if leaving < now else 0.01

    def _count(self, chat_id: int, now: float) -> Ticket:
        ticket = Ticket(chat_id, now)
        self._bot.append(ticket)
        if is_group(chat_id):
            self._groups.setdefault(chat_id, []).append(ticket)
            self.on_group_call(chat_id)
        return ticket

    @staticmethod
    def _recent(calls: list[Ticket], window: float, now: float) -> list[Ticket]:
        return [call for call in calls if not call.done or call.at > now - window]


def _chat_of(data: dict[str, Any]) -> int | None:
    chat_id = data.get("chat_id")
    if isinstance(chat_id, int):
        return chat_id
    if isinstance(chat_id, str) and chat_id.lstrip("-").isdigit():
        return int(chat_id)
    return None


def _seconds(error: RetryAfter) -> float:
    value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _outcome(error: TelegramError) -> str:
    """A failed call's outcome for the figures: a few kinds, never the error's text."""
    # BadRequest and TimedOut are NetworkErrors in python-telegram-bot: the narrow ones first.
    for kind, name in ((TimedOut, "timeout"), (BadRequest, "bad_request"), (Forbidden, "forbidden"),
                       (NetworkError, "network")):  # fmt: skip
        if isinstance(error, kind):
            return name
    return "error"


class FloodLimiter(BaseRateLimiter[Rate]):
    """Every Bot API call of the Application goes through here (python-telegram-bot calls it)."""

    def __init__(self, gate: FloodGate, max_retries: int = 5):
        self.gate = gate
        self.max_retries = max_retries
        # Told of every chat that refused a call with 403 (the chat keeper, which decides what
        # that means: handlers/delivery/chat_keeper.py), so that no caller's swallowed refusal is lost.
        self.refused: Callable[[int, str], None] | None = None

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Rate | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        rate = rate_limit_args or Rate()
        chat_id = _chat_of(data)
        counted = chat_id is not None and endpoint.startswith(COUNTED_PREFIXES) and endpoint not in NOT_COUNTED
        ticket = rate.ticket
        for attempt in range(self.max_retries + 1):
            if counted and ticket is None:
                assert chat_id is not None
                ticket = await self.gate.acquire(chat_id, rate.priority)
            try:
                result = await callback(*args, **kwargs)
                self.gate.metrics.api_calls.labels(endpoint, "ok").inc()
                return result
            except RetryAfter as error:
                self.gate.metrics.api_calls.labels(endpoint, "429").inc()
                self.gate.metrics.too_many_requests.labels(endpoint).inc()
                if attempt == self.max_retries:
                    raise
                if counted:
                    assert chat_id is not None
                    self.gate.ban(chat_id, _seconds(error))  # the next acquire waits it out
                else:
                    await asyncio.sleep(_seconds(error) * self.gate.telegram_second)
            except TelegramError as error:
                self.gate.metrics.api_calls.labels(endpoint, _outcome(error)).inc()
                if isinstance(error, Forbidden) and chat_id is not None and self.refused is not None:
                    self.refused(chat_id, str(error))
                raise
            finally:
                if ticket is not None:
                    self.gate.finished(ticket)
                    ticket = None
        raise AssertionError("unreachable")
