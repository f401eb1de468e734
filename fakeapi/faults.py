"""Transient faults of Telegram's side: 5xx answers, calls that hang, connections cut mid-call.

A mixin of FakeBotAPI.  A fault window (:meth:`inject_faults`) makes each chat-bound call that
changes a chat (send/edit/delete/stop...) fail with ``probability``, by a kind drawn from
``kinds``, seeded so that a run repeats exactly.  A faulty call does nothing on the fake's side:
it failed before Telegram acted on it.  Calls that only read or answer (getUpdates,
answerCallbackQuery, getChatMember...) are left alone unless ``methods`` names them.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Iterable

from aiohttp import web

from fakeapi.errors import TelegramAPIError
from fakeapi.flood import COUNTED_METHODS

SERVER_ERROR = "5xx"
HANG = "hang"
CUT = "cut"

_ANSWERS = [
    (500, "Internal Server Error"),
    (502, "Bad Gateway"),
    (503, "Service Unavailable"),
]


class CutConnection(Exception):
    """The fake closes the connection without an answer."""


class Faults:
    def inject_faults(self, probability: float, kinds: Iterable[str] = (SERVER_ERROR, HANG, CUT), seed: int = 0,
                      hang_seconds: float = 6.0, methods: Iterable[str] | None = None) -> None:
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
