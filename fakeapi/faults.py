"""Scripted failures of the fake Bot API: a method answering 5xx (a few times, or for a while:
an outage), or hanging before it answers (the client may give up first; the call still happens,
as on Telegram when only the response is lost).  A mixin of FakeBotAPI."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from fakeapi.errors import TelegramAPIError

STATUS_TEXT = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


@dataclass
class Fault:
    code: int  # 0: hang for `seconds`, then answer as usual
    times: int | None  # calls left to fail (None: every call until `until`)
    until: float | None = None  # time.monotonic() after which the fault is over
    seconds: float = 0.0


class Faults:
    def fail(self, method: str, code: int = 502, times: int | None = 1, seconds: float | None = None) -> None:
        """The next ``times`` calls of ``method`` fail with ``code`` (a 5xx); with ``seconds``,
        every call in the next ``seconds`` fails (an outage). ``method="*"``: every method but
        getUpdates."""
        until = time.monotonic() + seconds if seconds is not None else None
        self._faults[method.lower()] = Fault(code, None if seconds is not None else times, until)

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
        raise TelegramAPIError(fault.code, STATUS_TEXT.get(fault.code, "Server Error"))
