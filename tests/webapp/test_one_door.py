"""One door for moves (handlers/moves.py): a tap in the app and a press in the chat are the same
press, with one record of the branch a player opened; a tap loads its table once; and the page
that moved is not sent its own move again on its socket."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.services import services_of
from tests.e2e.test_kadi_table import press as chat_press
from tests.webapp.test_api import APP, Client, base_of, kadi, live, next_snapshot

pytestmark = pytest.mark.asyncio


async def until(condition, what, timeout=10.0):
    """Wait for `condition()` (a bound against a hung test, not a speed)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


async def test_a_card_marked_in_chat_is_marked_in_the_app_and_back(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina = sim.users[0]
        app = Client(http, base_of(application), amina)
        await chat_press(api, sim, amina, "5♥️")
        snap = await app.snapshot(table.table_id)
        assert snap["choices"]["at"] != 0, "the branch opened in chat is open in the app"
        assert [key["card"] for key in snap["choices"]["keys"] if key["marked"]] == ["5H"]
        # Back to the top in the app: the chat hand shows its top again.
        back = next(key for key in snap["choices"]["keys"] if key["kind"] == "back")
        status, _text = await app.post(
            f"api/table/{table.table_id}/press",
            {"version": snap["version"], "digest": snap["choices"]["digest"], "node": back["node"]},
        )
        assert status == 200
        await application.bot_data["karata"].publisher.flush()
        assert "Chosen:" not in sim.hand_message(amina).plain


async def test_a_tap_loads_its_table_once(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina = sim.users[0]
        app = Client(http, base_of(application), amina)
        snap = await app.snapshot(table.table_id)
        store = application.bot_data["karata"].store
        loads = []
        original = store.get_table

        async def counted(table_id):
            loads.append(table_id)
            return await original(table_id)

        store.get_table = counted
        try:
            marked = await app.tap(table.table_id, snap, "5H")
            assert len(loads) == 1, "a marking tap reads its table once"
            await app.tap(table.table_id, marked, "confirm")
            assert len(loads) == 2, "a playing tap reads its table once"
        finally:
            store.get_table = original


async def test_the_page_that_moved_is_not_sent_its_own_move_again(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, _ = sim.users
        base = base_of(application)
        hub = services_of(application).live
        app = Client(http, base, amina)
        snap = await app.snapshot(table.table_id)
        mine = await live(http, base, amina, table.table_id)
        his = await live(http, base, baraka, table.table_id)
        # Each socket opens with the table as it stands.
        assert (await next_snapshot(mine))["revision"] == snap["revision"]
        await until(
            lambda: hub.in_app(table.table_id, amina.id) and hub.in_app(table.table_id, baraka.id), "both pages live"
        )
        played = await app.tap(table.table_id, snap, "5H", "confirm")
        assert played["version"] == snap["version"] + 1
        assert (await next_snapshot(his, after=snap["version"]))["version"] == played["version"], (
            "the others are sent it"
        )
        barakas = Client(http, base, baraka)
        await barakas.tap(table.table_id, await barakas.snapshot(table.table_id), "alone")  # Draw
        seen = await next_snapshot(mine)
        assert seen["version"] == played["version"] + 1, "Amina's socket skips the move her own tap was answered with"
        await mine.close()
        await his.close()
