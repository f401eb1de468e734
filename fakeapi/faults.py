"""Transient faults of Telegram's side: 5xx answers, calls that hang, connections cut mid-call.

A mixin of FakeBotAPI, in two forms. Scripted (:meth:`fail`, :meth:`hang`): one method answers
5xx a few times or for a while (an outage), or hangs before it answers (the client may give up
first; the call still happens, as on Telegram when only the response is lost). A fault window
(:meth:`inject_faults`): each chat-bound call that changes a chat (send/edit/delete/stop...)
fails with ``probability``, by a kind drawn from ``kinds``, seeded so that a run repeats exactly;
such a call does nothing on the fake's side: it failed before Telegram acted on it. Calls that
only read or answer (getUpdates, answerCallbackQuery, getChatMember...) are left alone by a
window unless ``methods`` names them.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from aiohttp import web

from fakeapi.errors import TelegramAPIError
from fakeapi.flood import COUNTED_METHODS

SERVER_ERROR = "5xx"
HANG = "hang"
CUT = "cut"

STATUS_TEXT = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}
# What a fault window's 5xx answers are drawn from.
_ANSWERS = [(code, STATUS_TEXT[code]) for code in (500, 502, 503)]


class CutConnection(Exception):
    """The fake closes the connection without an answer."""


@dataclass
class Fault:
    code: int  # 0: hang for `seconds`, then answer as usual
    times: int | None  # calls left to fail (None: every call until `until`)
    until: float | None = None  # time.monotonic() after which the fault is over
    seconds: float = 0.0
    description: str | None = None


class Faults:
    def fail(
        self,
        method: str,
        code: int = 502,
        times: int | None = 1,
        seconds: float | None = None,
        description: str | None = None,
    ) -> None:
        """The next ``times`` calls of ``method`` fail with ``code`` (a 5xx, or a 4xx with Telegram's
        ``description``); with ``seconds``, every call in the next ``seconds`` fails (an outage).
        ``method="*"``: every method but getUpdates."""
        until = time.monotonic() + seconds if seconds is not None else None
        times = None if seconds is not None else times
        self._faults[method.lower()] = Fault(code, times, until, description=description)

    def hang(self, method: str, seconds: float, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` are held ``seconds`` before they are handled."""
        self._faults[method.lower()] = Fault(0, times, None, seconds)

    async def _fault(self, method: str) -> None:
        name = method.lower()
        fault = self._faults.get(name) or (self._faults.get("*") if name != "getupdates" else None)
        if fault is None:
            return
        if fault.until is not None and time.monotonic() >= fault.until:
            self._faults = {key: value for key, value in self._faults.items() if value is not fault}
            return
        if fault.times is not None:
            if fault.times <= 0:
                return
            fault.times -= 1
        if fault.code == 0:
            await asyncio.sleep(fault.seconds)
            return
        raise TelegramAPIError(fault.code, fault.description or STATUS_TEXT.get(fault.code, "Server Error"))

    def inject_faults(
        self,
        probability: float,
        kinds: Iterable[str] = (SERVER_ERROR, HANG, CUT),
        seed: int = 0,
        hang_seconds: float = 6.0,
        methods: Iterable[str] | None = None,
    ) -> None:
        """From now on each counted call (or one of ``methods``) fails with ``probability``: a 5xx
        answer, a call that hangs ``hang_seconds`` and is then cut (longer than the client's read
        timeout: it times out), or a connection cut at once.  ``inject_faults(0)`` ends the window."""
        self._fault_probability = float(probability)
        self._fault_kinds = list(kinds)
        self._fault_rng = random.Random(seed)
        self._fault_hang = float(hang_seconds)
        self._fault_methods = {method.lower() for method in methods} if methods is not None else None

    def stop_faults(self) -> None:
        self._fault_probability = 0.0

    @property
    def faults(self) -> Counter:
        """How many calls failed by each kind of fault so far."""
        return self._fault_counts

    async def _maybe_fault(self, method: str, request: web.Request) -> None:
        """Raise the fault this call meets, if any (called before the method acts)."""
        if not getattr(self, "_fault_probability", 0.0):
            return
        name = method.lower()
        wanted = self._fault_methods if self._fault_methods is not None else COUNTED_METHODS
        if name not in wanted or self._fault_rng.random() >= self._fault_probability:
            return
        kind = self._fault_rng.choice(self._fault_kinds)
        self._fault_counts[kind] += 1
        if kind == SERVER_ERROR:
            code, description = self._fault_rng.choice(_ANSWERS)
            raise TelegramAPIError(code, description)
        if kind == HANG:
            await asyncio.sleep(self._fault_hang)
        raise CutConnection()
