"""Watching a table in the Mini App, against the real bot on the fake Bot API: the group's 👀 Watch
link lets anyone who has it follow the table, seat-less (no hand, nothing to press, no hidden
card), live on a socket; watchers cost no Bot API call, and the players' pages say how many
watch."""

from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import parse_qs, urlparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.demo import DEMO_TOKEN
from bot.services import services_of
from fakeapi.webapp import sign_init_data
from handlers.presentation.callback_data import WatchLink, parse_watch
from tests.e2e.test_kadi_table import FIVES
from tests.webapp.test_api import APP, BARAKA, Client, base_of, kadi, live, next_snapshot
from tests.webapp.watching import hidden_cards, leaked

WATCH_APP = {**APP, "KARATA_WEBAPP_NAME": "karata"}


def watcher_data(user, start_param, language="en"):
    return sign_init_data(
        DEMO_TOKEN,
        {"id": user.id, "first_name": user.first_name, "language_code": language},
        None,
        start_param,
    )


def watch_link(sim) -> str:
    """The start parameter of the group table's 👀 Watch link."""
    urls = [url for row in sim.table_message().buttons for label, url in row if label == "👀 Watch"]
    assert len(urls) == 1, sim.table_message().buttons
    return parse_qs(urlparse(urls[0]).query)["startapp"][0]


async def watcher_socket(http, base, data, table_id):
    socket = await http.ws_connect(base + f"api/table/{table_id}/live")
    await socket.send_json({"initData": data})
    return socket


async def told_count(socket, count, timeout=10.0):
    """Wait for the player's page to be told `count` watchers (a bound against a hung test)."""
    deadline = time.monotonic() + timeout
    while True:
        message = await asyncio.wait_for(socket.receive_json(), max(0.0, deadline - time.monotonic()))
        if message["type"] == "watchers" and message["count"] == count:
            return


@given(st.text(alphabet="w_0123456789abcdefABCDEF²٣-t", max_size=40))
def test_a_watch_parameter_is_one_we_make_or_nothing(param):
    """Only `w<table>_<12 hex digits>` names a table to watch (its token is then the table's to
    check): no other digits, no huge numbers, nothing after it."""
    watch = parse_watch(param)
    assert watch is None or watch.payload() == param
    assert parse_watch(WatchLink(12, "0a1b2c3d4e5f").payload()) == WatchLink(12, "0a1b2c3d4e5f")
    assert parse_watch("w9999999999999999_0a1b2c3d4e5f") is None and parse_watch("w12_0a1b") is None


@pytest.mark.asyncio
async def test_the_group_tables_watch_link_shows_the_table_and_no_hand_to_anyone_who_has_it(api, start_bot, http):
    async with start_bot(**WATCH_APP) as application:
        sim, table = await kadi(api, application)
        await application.bot_data["karata"].publisher.flush()
        param = watch_link(sim)
        assert param.startswith(f"w{table.table_id}_")
        base = base_of(application)
        zuberi = api.add_user(2001, "Zuberi", language_code="en")
        watcher = Client(http, base, data=watcher_data(zuberi, param))
        status, text = await watcher.get("api/me")
        me = json.loads(text)
        assert status == 200 and me["current"] == table.table_id and me["watch"] == table.table_id
        assert me["tables"] == [], "a watcher sits at no table"
        status, text = await watcher.get(f"api/table/{table.table_id}")
        assert status == 200, text
        snap = json.loads(text)
        assert snap["watching"] and snap["hand"] == [] and snap["choices"]["keys"] == [] and snap["buttons"] == []
        assert [seat["cards"] for seat in snap["seats"]] == [5, 5, 5], "every seat's card count"
        assert not any(seat["you"] for seat in snap["seats"])
        assert any(zone["id"] == "top" and zone["cards"] == ["6H"] for zone in snap["zones"])
        assert snap["prompt"] == "👀 You are watching this table."
        assert not any(f'"{card}"' in text for card in FIVES + BARAKA), "no player's card"
        loaded = await application.bot_data["karata"].service.load(table.table_id)
        assert not leaked(text, hidden_cards(loaded.game, loaded.state))
        # Without the link's token (or with another table's) the table is not theirs to see.
        for wrong in (None, f"t{table.table_id}", f"w{table.table_id}_", f"w{table.table_id}_{'0' * 12}"):
            status, text = await Client(http, base, data=watcher_data(zuberi, wrong)).get(f"api/table/{table.table_id}")
            assert status == 403 and not any(card in text for card in FIVES), wrong
        # A watcher presses nothing: the table does not move.
        status, _ = await watcher.post(
            f"api/table/{table.table_id}/press", {"version": snap["version"], "digest": "1", "node": 1}
        )
        assert status == 403
        assert (await application.bot_data["karata"].store.get_table(table.table_id)).version == table.version


@pytest.mark.asyncio
async def test_watchers_follow_the_table_live_cost_no_bot_api_call_and_the_players_see_how_many(api, start_bot, http):
    async with start_bot(**WATCH_APP) as application:
        karata = application.bot_data["karata"]
        sim, table = await kadi(api, application)
        amina = sim.users[0]
        await karata.publisher.flush()
        param = watch_link(sim)
        base = base_of(application)
        player = Client(http, base, amina)
        snap = await player.snapshot(table.table_id)
        assert snap["watchers"] == 0 and not snap["watching"]
        amina_socket = await live(http, base, amina, table.table_id)
        await next_snapshot(amina_socket)
        calls = len(api.calls)
        watchers = [api.add_user(3000 + index, f"Mtazamaji {index}", language_code="sw") for index in range(3)]
        sockets = []
        for watcher in watchers:
            data = watcher_data(watcher, param, "sw")
            assert (await Client(http, base, data=data).snapshot(table.table_id))["watching"]
            sockets.append(await watcher_socket(http, base, data, table.table_id))
        for socket in sockets:
            first = await next_snapshot(socket)
            assert first["watching"] and first["language"] == "sw" and first["hand"] == []
        await told_count(amina_socket, 3)
        assert (await player.snapshot(table.table_id))["watchers"] == 3
        await karata.publisher.flush()
        assert len(api.calls) == calls, "watchers joining cost no Bot API call"
        assert services_of(application).live.watchers(table.table_id) == 3

        # Amina plays in the app: every watcher's socket shows the new centre, and nothing hidden.
        played = await player.tap(table.table_id, await player.snapshot(table.table_id), "5H", "confirm")
        loaded = await karata.service.load(table.table_id)
        hidden = hidden_cards(loaded.game, loaded.state)
        for socket in sockets:
            moved = await next_snapshot(socket, after=snap["version"])
            assert moved["version"] == played["version"] and moved["to_act"] == [1]
            assert any(zone["id"] == "top" and zone["cards"] == ["5H"] for zone in moved["zones"])
            assert not leaked(json.dumps(moved, ensure_ascii=False), hidden)
        await karata.publisher.flush()
        watcher_ids = {watcher.id for watcher in watchers}
        assert not any(params.get("chat_id") in watcher_ids for _method, params in api.calls), "nothing to a watcher"

        calls = len(api.calls)
        for socket in sockets:
            await socket.close()
        await told_count(amina_socket, 0)
        await karata.publisher.flush()
        assert len(api.calls) == calls, "watchers leaving cost no Bot API call"
        assert (await karata.store.get_table(table.table_id)).version == played["version"]
