"""The Mini App's routes under bad input: ids and digests of Unicode digits or thousands of them,
JSON nested thousands deep, over-long file names, a socket that opens with garbage. Each is
refused 4xx with a short body and at most one log line, never a traceback; a user's sockets are
capped; the page has its policy wherever it is served, and no answer names the software."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from urllib.parse import quote

import aiohttp
import pytest
from hypothesis import strategies as st

from bot.services import services_of
from handlers.webapp.api import CSP
from handlers.webapp.live import MAX_PER_USER
from tests.e2e.raw_http import assert_refused_quietly, fuzz, request
from tests.webapp.test_api import APP, Client, base_of, init_data, kadi, live

pytestmark = pytest.mark.asyncio

UNICODE_DIGITS = ["%C2%B2", "²", "①", "٣", "𝟘"]
LONG = "9" * 5000


def port_of(application):
    return services_of(application).web.port


def log_from_info(caplog) -> None:
    """Records from INFO up, but the scheduler's routine lines: its jobs (the season check a second
    after the start) run whenever a busy machine lets them, between a request and its check."""
    caplog.set_level(logging.WARNING, logger="apscheduler")
    caplog.set_level(logging.INFO)  # last: it sets the capturing handler's level too


async def test_the_issues_requests_are_refused_quietly(api, start_bot, http, caplog):
    log_from_info(caplog)
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina = sim.users[0]
        signed = {"X-Telegram-Init-Data": init_data(amina)}
        snap = await Client(http, base_of(application), amina).snapshot(table.table_id)
        press = {"version": snap["version"], "digest": snap["choices"]["digest"], "node": 1}
        cases = [("GET", f"/app/api/table/{bad}", None) for bad in [*UNICODE_DIGITS, LONG, "0", "-1", "1e3"]]
        cases += [("GET", f"/app/api/me?table={bad}", None) for bad in [*UNICODE_DIGITS, LONG, "-1"]]
        cases += [("POST", f"/app/api/table/{bad}/press", press) for bad in ["%C2%B2", "①", LONG]]
        cases += [
            ("POST", f"/app/api/table/{table.table_id}/press", {**press, "digest": bad})
            for bad in ["²", "①①", "٣٣", LONG, ""]
        ]
        cases += [("POST", f"/app/api/table/{table.table_id}/{route}", "[" * 4000) for route in ("press", "button")]
        cases += [("POST", f"/app/api/table/{table.table_id}/press", '{"a":' * 1000 + "1" + "}" * 1000)]
        cases += [
            ("GET", f"/app/static/{name}", None)
            for name in ["a" * 300, "a" * 5000, f"{'b' * 200}/{'c' * 300}", "%2e%2e/api.py", "..%2fapi.py", "app.js%00"]
        ]
        for method, target, body in cases:
            caplog.clear()
            raw = body.encode() if isinstance(body, str) else json.dumps(body).encode() if body else b""
            answer = await request(port_of(application), method, target, signed, raw)
            assert_refused_quietly(answer, caplog.records, target[:80])
        assert (await application.bot_data["karata"].store.get_table(table.table_id)).version == snap["version"]


async def test_fuzzed_requests_to_the_api_are_refused_quietly(api, start_bot, caplog):
    """Hypothesis sends table ids, `?table=` values (to the API and to the page's redirect),
    static file names, digests and bodies of every shape, signed by a player of the table: each
    gets an answer below 500, and a refusal is quiet."""
    log_from_info(caplog)
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        signed = {"X-Telegram-Init-Data": init_data(sim.users[0])}
        port = port_of(application)
        digits = st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=30)
        ids = (digits | st.text(max_size=30) | st.integers().map(str)).map(lambda text: quote(text, safe=""))
        scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12) | digits
        junk = st.recursive(
            scalars,
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.sampled_from(["version", "digest", "node", "name", "x"]), inner, max_size=4)
            ),
            max_leaves=10,
        )
        routes = st.sampled_from(["press", "button"])
        requests = (
            ids.map(lambda text: ("GET", f"/app/api/table/{text}", b""))
            | ids.map(lambda text: ("GET", f"/app/api/me?table={text}", b""))
            | ids.map(lambda text: ("GET", f"/app/static/{text}", b""))
            | ids.map(lambda text: ("GET", f"/app?table={text}", b""))
            | st.tuples(routes, junk).map(
                lambda pair: ("POST", f"/app/api/table/{table.table_id}/{pair[0]}", json.dumps(pair[1]).encode())
            )
            | st.tuples(routes, ids).map(lambda pair: ("POST", f"/app/api/table/{pair[1]}/{pair[0]}", b"{}"))
        )

        async def check(sent):
            caplog.clear()
            answer = await request(port, *sent[:2], signed, sent[2])
            assert answer.status < 500, (sent, answer.body[:200])
            if answer.status >= 400:
                assert_refused_quietly(answer, caplog.records, sent)

        await fuzz(requests, check, examples=150)


async def test_a_socket_that_opens_with_garbage_is_closed_cleanly(api, start_bot, http, caplog):
    log_from_info(caplog)
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        for first in ["[" * 5000, '{"initData": ' * 600, "not json", json.dumps({"initData": 5})]:
            caplog.clear()
            socket = await http.ws_connect(base_of(application) + f"api/table/{table.table_id}/live")
            await socket.send_str(first)
            refused = await asyncio.wait_for(socket.receive_json(), 10)
            assert refused["error"] == "malformed" and refused["message"], first[:20]
            assert (await asyncio.wait_for(socket.receive(), 10)).type == aiohttp.WSMsgType.CLOSE
            assert not [record for record in caplog.records if record.levelno >= logging.INFO], first[:20]
        assert services_of(application).live.count() == 0


async def wait_for(condition, what, timeout=10.0):
    """A bound against a hung test, not a speed."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


async def test_a_users_newest_socket_closes_their_oldest_beyond_four(api, start_bot, http):
    """Every change builds a snapshot per socket: one user keeps at most four. The fifth closes
    the oldest, whose page is told why (so it does not reconnect by itself, which would close
    another); Baraka's socket is not counted with Amina's."""
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, _ = sim.users
        base = base_of(application)
        hub = services_of(application).live

        async def opened_page(user):
            socket = await live(http, base, user, table.table_id)
            # A socket always opens with the current table.
            assert (await asyncio.wait_for(socket.receive_json(), 10))["type"] == "snapshot"
            return socket

        barakas = await opened_page(baraka)
        sockets = []
        for opened in range(1, MAX_PER_USER + 1):
            sockets.append(await opened_page(amina))
            await wait_for(lambda: hub.count() == opened + 1, f"socket {opened} counted")
        sockets.append(await live(http, base, amina, table.table_id))
        told = await asyncio.wait_for(sockets[0].receive_json(), 10)
        assert told["type"] == "error" and told["error"] == "too_many_windows"
        assert "too many windows" in told["message"]
        closed = await asyncio.wait_for(sockets[0].receive(), 10)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == aiohttp.WSCloseCode.POLICY_VIOLATION
        await wait_for(lambda: hub.count() == MAX_PER_USER + 1, "the oldest uncounted")
        assert not barakas.closed and not any(socket.closed for socket in sockets[1:])


async def test_the_page_has_its_policy_at_both_addresses_and_no_answer_names_the_software(api, start_bot):
    async with start_bot(**APP) as application:
        port = port_of(application)
        page = await request(port, "GET", "/app/")
        static_page = await request(port, "GET", "/app/static/index.html")
        assert page.status == static_page.status == 200
        assert page.headers["content-security-policy"] == static_page.headers["content-security-policy"] == CSP
        answers = [page, static_page]
        for target in ["/app/static/app.js", "/app/api/me", "/app/static/nothing", "/healthz", "/metrics", "/nowhere"]:
            answers.append(await request(port, "GET", target))
        for answer in answers:
            assert answer.headers.get("server") == "Karata"


async def test_an_unsigned_init_data_nested_thousands_deep_is_refused_quietly(api, start_bot, http, caplog):
    """The refusal's language is read from an initData whose signature failed: its `user`
    nested thousands deep is a 401 like any forged one, on the API and on the live socket."""
    log_from_info(caplog)
    async with start_bot(**APP) as application:
        _sim, table = await kadi(api, application)
        forged = "user=" + "[" * 3000 + "&hash=00"
        caplog.clear()
        answer = await request(port_of(application), "GET", "/app/api/me", {"X-Telegram-Init-Data": forged})
        assert answer.status == 401, answer.body[:200]
        assert_refused_quietly(answer, caplog.records, "nested user")
        caplog.clear()
        socket = await http.ws_connect(base_of(application) + f"api/table/{table.table_id}/live")
        await socket.send_str(json.dumps({"initData": forged}))
        refused = await asyncio.wait_for(socket.receive_json(), 10)
        assert refused["error"] == "unauthorized" and refused["message"]
        assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
