"""Deliveries to Telegram, one chat at a time, the newest content of each message only.

The publisher hands the courier a delivery per message ("slot") of a table; the courier keeps one
queue per chat and, in each, only the newest delivery of a slot: if a table changes three times
while its group waits for room in its flood budget, the group's table message is edited once,
to the last state. A chat's queue sends one call at a time, most urgent slot first, after the
flood gate said it fits; chats do not wait for each other. The delivery itself is a coroutine
function of the publisher's that reads what to send when it runs, so it is always current.

A chat the bot can no longer write to (removed from the group, the group deleted or upgraded to
a supergroup) is given up: what was queued for it is dropped, and later deliveries to it are
done at once without a call, until the bot is back in the chat (`revive`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from telegram.error import TelegramError

from handlers.delivery.flood import FloodGate, Ticket
from handlers.delivery.precedence import at_once

log = logging.getLogger(__name__)

# A delivery makes its calls; the first one may use the ticket the gate gave (see flood.Rate).
Delivery = Callable[[Ticket], Awaitable[None]]


@dataclass(order=True)
class _Parcel:
    priority: int
    serial: int
    key: tuple[int, str] = field(compare=False)
    deliver: Delivery = field(compare=False)
    done: asyncio.Future[None] = field(compare=False)


class Courier:
    def __init__(self, gate: FloodGate, yield_to: Callable[[], Awaitable[None]] = at_once):
        self.gate = gate
        # Waits while updates are being handled (handlers/delivery/precedence.py): presses go first.
        self.yield_to = yield_to
        self._queues: dict[int, dict[tuple[int, str], _Parcel]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._serials = itertools.count()
        self._idle = asyncio.Event()
        self._idle.set()
        # Chats given up on, and why (one line in the log each, not one per call).
        self._gone: dict[int, str] = {}

    def give_up(self, chat_id: int, reason: str) -> bool:
        """Stop calling `chat_id`: drop what is queued for it (as delivered: there is nothing
        left to deliver it to). False if it was given up already."""
        if chat_id in self._gone:
            return False
        self._gone[chat_id] = reason
        for parcel in self._queues.get(chat_id, {}).values():
            if not parcel.done.done():
                parcel.done.set_result(None)
        self._queues.get(chat_id, {}).clear()
        return True

    def revive(self, chat_id: int) -> None:
        """The bot can write to `chat_id` again."""
        self._gone.pop(chat_id, None)

    def gone(self, chat_id: int) -> str | None:
        """Why `chat_id` was given up, or None."""
        return self._gone.get(chat_id)

    def send(self, chat_id: int, key: tuple[int, str], priority: int, deliver: Delivery) -> asyncio.Future[None]:
        """Queue the newest delivery for `key` (table, slot) in `chat_id`; the future resolves
        when the slot has been delivered (with this content or newer), or at once for a chat
        given up on."""
        if chat_id in self._gone:
            done = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        queue = self._queues.setdefault(chat_id, {})
        waiting = queue.get(key)
        done = waiting.done if waiting is not None else asyncio.get_running_loop().create_future()
        # A newer delivery keeps its place in line but takes the more urgent priority.
        serial = waiting.serial if waiting is not None else next(self._serials)
        # The chat's worker may be waiting in the gate for something less urgent: it goes sooner.
        self.gate.hurry(chat_id, priority)
        priority = min(priority, waiting.priority) if waiting is not None else priority
        queue[key] = _Parcel(priority, serial, key, deliver, done)
        self._idle.clear()
        if chat_id not in self._workers:
            self._workers[chat_id] = asyncio.get_running_loop().create_task(self._work(chat_id))
        return done

    def pending(self, private_only: bool = False) -> int:
        """Deliveries queued or under way (in private chats only, if asked)."""
        chats = [chat for chat in self._workers if chat > 0 or not private_only]
        return sum(len(self._queues.get(chat, ())) for chat in chats) + len(chats)

    async def idle(self, private_only: bool = False) -> None:
        """Wait until every queued delivery (to private chats only, if asked) has gone out."""
        if private_only:
            while workers := [task for chat, task in self._workers.items() if chat > 0]:
                await asyncio.wait(workers)
            return
        while self._workers:
            await self._idle.wait()

    async def drain(self, timeout: float, private_only: bool = False) -> bool:
        """Wait at most `timeout` seconds for every queue to empty; False if some did not."""
        try:
            await asyncio.wait_for(self.idle(private_only), timeout)
        except TimeoutError:
            return False
        return True

    async def _work(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        try:
            while queue:
                await self.yield_to()
                best = min(queue.values())
                ticket = await self.gate.acquire(chat_id, best.priority)
                if not queue:  # the chat was given up on while we waited
                    self.gate.finished(ticket)
                    break
                # The newest and most urgent delivery at the moment the gate opened.
                parcel = min(queue.values())
                del queue[parcel.key]
                # The JSON log's fields (bot/logs.py): this worker task is about no one update.
                about = {"chat_id": chat_id, "table_id": parcel.key[0]}
                try:
                    await parcel.deliver(ticket)
                except TelegramError as error:  # Telegram's answer: one line, the publisher retries
                    log.warning(
                        "delivery %s to chat %s failed: %s: %s", parcel.key, chat_id, type(error).__name__, error,
                        extra=about,
                    )  # fmt: skip
                except Exception:  # one failed delivery must not stop the chat's queue
                    log.exception("delivery %s to chat %s failed", parcel.key, chat_id, extra=about)
                finally:
                    self.gate.finished(ticket)  # also when the delivery found nothing to send
                    if not parcel.done.done():
                        parcel.done.set_result(None)
        finally:
            del self._workers[chat_id]
            if not queue:
                self._queues.pop(chat_id, None)
            if not self._workers:
                self._idle.set()
