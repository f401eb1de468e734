"""Requests to the bot's HTTP server as bytes on a socket (any path, header or body, well formed
or not), what the server answered, and what the log said meanwhile; and a hypothesis fuzz that
sends its examples to a bot running on the test's event loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# A refusal's body says what was wrong in a sentence, never a page or a traceback.
SHORT_BODY = 300
# Bounds against a hung test, not speeds.
ANSWER_SECONDS = 10.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


async def send_bytes(port: int, data: bytes) -> Answer:
    """Send `data` as it is and read the answer until the server closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), ANSWER_SECONDS)
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(int(status_line.split()[1]), headers, body)


async def request(
    port: int, method: str, target: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> Answer:
    """One request, its target and header values sent as UTF-8 without any quoting."""
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return await send_bytes(port, ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body)


def assert_refused_quietly(answer: Answer, records: list[logging.LogRecord], what: object) -> None:
    """A 4xx with a short body, and at most one log line, without a traceback."""
    # The scheduler's own lines (a periodic job that happened to run meanwhile) are not the request's.
    said = [
        record for record in records if record.levelno >= logging.INFO and not record.name.startswith("apscheduler")
    ]
    assert 400 <= answer.status < 500, (what, answer.status, answer.body[:200])
    assert len(answer.body) <= SHORT_BODY, (what, answer.body[:200])
    assert len(said) <= 1, (what, [record.getMessage() for record in said])
    assert not any(record.exc_info or record.exc_text or record.levelno >= logging.ERROR for record in said), (
        what,
        [record.getMessage() for record in said],
    )


async def fuzz(strategy: st.SearchStrategy, check: Callable[[object], Awaitable[None]], examples: int) -> None:
    """Run `check` on `examples` values of `strategy`, derandomized (the same values every run).
    Hypothesis runs in a thread of its own and hands each value to this event loop, where the
    bot serves it."""
    loop = asyncio.get_running_loop()

    @settings(
        max_examples=examples, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(strategy)
    def run(value: object) -> None:
        asyncio.run_coroutine_threadsafe(check(value), loop).result(timeout=ANSWER_SECONDS * 3)

    await asyncio.to_thread(run)
