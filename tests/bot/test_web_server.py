"""The bot's HTTP server against slow clients and malformed HTTP: a connection that sends nothing,
or its headers a byte at a time, is closed after a bounded time (an open live socket is not); a
malformed request is answered 400 and logged at most once a minute, without a traceback; no
answer names the server's software."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import aiohttp
import pytest
from aiohttp import web
from aiohttp.http_exceptions import BadHttpMessage

from bot.web import MalformedRequests, WebServer
from tests.e2e.raw_http import send_bytes

pytestmark = pytest.mark.asyncio

IDLE = 0.5
# Bounds against a hung test, not speeds: the server closes after IDLE, the test allows far more.
BOUND = 15.0


@contextlib.asynccontextmanager
async def serving():
    server = WebServer("127.0.0.1", 0, idle_seconds=IDLE)

    async def hello(_request):
        return web.Response(text="hello")

    async def socket(request):
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            await ws.send_str(message.data)
        return ws

    async def echo(request):
        return web.Response(body=await request.read())

    server.add_routes([web.get("/hello", hello), web.get("/socket", socket), web.post("/echo", echo)])
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    """True once the server closes (EOF or reset) within BOUND."""
    try:
        return await asyncio.wait_for(reader.read(), BOUND) == b""
    except ConnectionResetError:
        return True


async def test_a_connection_that_sends_nothing_is_closed():
    async with serving() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        assert await closed_by_server(reader)
        writer.close()


async def test_headers_sent_a_byte_at_a_time_do_not_hold_the_connection_open():
    async with serving() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        trickle = b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000

        async def send_slowly():
            for byte in trickle:
                writer.write(bytes([byte]))
                await asyncio.sleep(0.05)

        sender = asyncio.ensure_future(send_slowly())
        started = time.monotonic()
        assert await closed_by_server(reader)
        assert not sender.done(), "closed while the headers were still coming"
        assert time.monotonic() - started < BOUND
        sender.cancel()
        writer.close()


async def test_keep_alive_requests_and_an_open_socket_outlive_the_idle_bound():
    async with serving() as server, aiohttp.ClientSession() as session:
        base = f"http://127.0.0.1:{server.port}"
        for _ in range(2):
            async with session.get(base + "/hello") as response:
                assert await response.text() == "hello"
        socket = await session.ws_connect(base + "/socket", autoping=False)
        await asyncio.sleep(IDLE * 4)  # a quiet socket: the idle bound is for requests not yet sent
        await socket.send_str("still here")
        assert await asyncio.wait_for(socket.receive_str(), BOUND) == "still here"
        await socket.close()


MALFORMED = {
    "an 8 KB header": b"GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
    "Content-Length with Transfer-Encoding": (
        b"POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    ),
    "a request line of garbage": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 hello\r\n\r\n",
    "a header without a colon": b"GET /hello HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
    "a gzip body that is not": b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello",
}


async def test_malformed_requests_are_answered_400_with_one_line_a_minute_and_no_traceback(caplog):
    caplog.set_level(logging.DEBUG, logger="aiohttp")
    caplog.set_level(logging.INFO)
    async with serving() as server:
        for case, data in MALFORMED.items():
            answer = await send_bytes(server.port, data)
            assert answer.status == 400, case
            assert len(answer.body) < 300, case
            assert "aiohttp" not in answer.headers.get("server", ""), case
    said = [record for record in caplog.records if record.levelno >= logging.INFO]
    assert len(said) == 2, [record.getMessage() for record in said]  # the listening line, and one
    assert "malformed HTTP request from 127.0.0.1: " in said[1].getMessage()
    assert not any(record.exc_info or record.exc_text for record in said)


async def test_a_client_that_leaves_mid_body_costs_no_log_line(caplog):
    caplog.set_level(logging.DEBUG)
    async with serving() as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhalf")
        await writer.drain()
        writer.close()
        deadline = time.monotonic() + BOUND
        while not any(
            isinstance(record.exc_info and record.exc_info[1], ConnectionResetError) for record in caplog.records
        ):
            assert time.monotonic() < deadline, "the server never saw the client leave"
            await asyncio.sleep(0.02)
    said = [record.getMessage() for record in caplog.records if record.levelno >= logging.INFO]
    assert said == [f"HTTP server listening on 127.0.0.1:{server.port}"], said


async def test_the_malformed_requests_line_counts_those_it_did_not_say(caplog):
    caplog.set_level(logging.INFO)
    now = [0.0]
    log = MalformedRequests(logging.getLogger("aiohttp.server"), every=60.0, clock=lambda: now[0])
    for _ in range(3):
        log.exception("Error handling request from %s", "10.0.0.1", exc_info=BadHttpMessage("Bad\nheader"))
        now[0] += 10
    now[0] = 61
    log.exception("Error handling request from %s", "10.0.0.2", exc_info=BadHttpMessage("Bad header"))
    lines = [record.getMessage() for record in caplog.records]
    assert lines == [
        "malformed HTTP request from 10.0.0.1: Bad header",
        "malformed HTTP request from 10.0.0.2: Bad header (2 more since the last such line)",
    ]
    # A handler's own failure is no malformed request: aiohttp's line and traceback stay.
    caplog.clear()
    try:
        raise RuntimeError("a bug")
    except RuntimeError as bug:
        log.exception("Error handling request from %s", "10.0.0.3", exc_info=bug)
    assert caplog.records[0].levelno == logging.ERROR and caplog.records[0].exc_info
