"""The Mini App's API over real HTTP against the real bot on the fake Bot API: who may see and do
what (initData, seats, versions, bodies), that a tap in the app is the chat's press, and the live
socket that replaces the chat hand while the app is open."""

from __future__ import annotations

import asyncio
import json
import random
import time

import aiohttp
import pytest

from bot.demo import DEMO_TOKEN
from bot.services import services_of
from fakeapi.webapp import sign_init_data
from tests.e2e.conftest import simulation
from tests.e2e.test_crashes_and_strangers import crash
from tests.e2e.test_kadi_table import FIVES, open_kadi
from tests.e2e.test_kadi_table import press as chat_press
from tests.webapp.round_end import make, to_the_last_move_of_the_round

pytestmark = pytest.mark.asyncio

APP = {"KARATA_WEBAPP_URL": "http://127.0.0.1/app/"}
BARAKA = ["KS", "QD", "9D", "4C", "8S"]


def init_data(user, auth_date=None, token=DEMO_TOKEN, start_param=None):
    user_json = {"id": user.id, "first_name": user.first_name, "language_code": "en"}
    return sign_init_data(token, user_json, auth_date, start_param)


class Client:
    """The page's side of the API, as one user."""

    def __init__(self, session, base, user=None, data=None):
        self.session, self.base = session, base
        self.data = data if data is not None else init_data(user)

    async def get(self, path):
        async with self.session.get(self.base + path, headers={"X-Telegram-Init-Data": self.data}) as response:
            return response.status, await response.text()

    async def post(self, path, body):
        raw = body if isinstance(body, (str, bytes)) else json.dumps(body)
        async with self.session.post(
            self.base + path, data=raw, headers={"X-Telegram-Init-Data": self.data}
        ) as response:
            return response.status, await response.text()

    async def snapshot(self, table_id):
        status, text = await self.get(f"api/table/{table_id}")
        assert status == 200, text
        return json.loads(text)

    async def tap(self, table_id, snap, *cards_then_confirm):
        """Tap buttons by card code (or "confirm") from the open node, as the page would."""
        for wanted in cards_then_confirm:
            found = next(key for key in snap["choices"]["keys"] if key["card"] == wanted or key["kind"] == wanted)
            status, text = await self.post(
                f"api/table/{table_id}/press",
                {"version": snap["version"], "digest": snap["choices"]["digest"], "node": found["node"]},
            )
            assert status == 200, text
            snap = json.loads(text)
        return snap


def base_of(application):
    return f"http://127.0.0.1:{services_of(application).web.port}/app/"


async def kadi(api, application):
    sim = simulation(api)
    table = await open_kadi(api, application, sim, hands=[FIVES, BARAKA], start="6H")
    return sim, table


async def test_forged_expired_and_missing_init_data_are_refused_with_a_sentence(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina = sim.users[0]
        base = base_of(application)
        cases = {
            "forged": init_data(amina, token="123456789:another-bots-token-xx"),
            "expired": init_data(amina, auth_date=int(time.time()) - 25 * 3600),
            "future": init_data(amina, auth_date=int(time.time()) + 3600),
            "missing": "",
            "tampered": init_data(amina).replace("Amina", "Baraka"),
        }
        for case, data in cases.items():
            for path in ("api/me", f"api/table/{table.table_id}"):
                status, text = await Client(http, base, data=data).get(path)
                assert status == 401, (case, text)
                body = json.loads(text)
                assert body["error"] in ("unauthorized", "expired") and body["message"], case
                assert "FIVES" not in text and "5H" not in text
        status, text = await Client(http, base, data=cases["forged"]).post(
            f"api/table/{table.table_id}/press", {"version": table.version, "digest": "1", "node": 1}
        )
        assert status == 401
        assert (await application.bot_data["karata"].store.get_table(table.table_id)).version == table.version


async def test_a_player_sees_their_own_cards_and_nothing_of_a_table_they_do_not_sit_at(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, chausiku = sim.users
        base = base_of(application)
        stranger = api.add_user(2001, "Zuberi", language_code="en")
        snap = await Client(http, base, amina).snapshot(table.table_id)
        assert sorted(snap["hand"]) == sorted(FIVES)
        assert snap["status"] == "running" and snap["game"] == "kadi"
        assert [seat["you"] for seat in snap["seats"]] == [True, False, False]
        assert snap["seats"][1]["cards"] == 5, "others' hands are counts"
        assert not any(card in json.dumps(snap) for card in BARAKA), "nothing of Baraka's hand reaches Amina"
        assert any(zone["id"] == "top" and zone["cards"] == ["6H"] for zone in snap["zones"])
        assert snap["prompt"].startswith("Your turn: play a card.")
        assert snap["prompt"].splitlines()[0] in sim.hand_message(amina).plain, "the chat hand's own sentence"
        mine = await Client(http, base, baraka).snapshot(table.table_id)
        assert sorted(mine["hand"]) == sorted(BARAKA) and not any(card in json.dumps(mine) for card in FIVES)
        status, text = await Client(http, base, stranger).get(f"api/table/{table.table_id}")
        assert status == 403 and json.loads(text)["message"] == "You are not playing at this table."
        assert not any(card in text for card in FIVES + BARAKA)
        status, _ = await Client(http, base, stranger).get("api/table/99999")
        assert status == 404
        status, text = await Client(http, base, stranger).post(
            f"api/table/{table.table_id}/press",
            {"version": snap["version"], "digest": snap["choices"]["digest"], "node": 1},
        )
        assert status == 403
        status, text = await Client(http, base, amina).get("api/me")
        me = json.loads(text)
        assert me["user"]["id"] == amina.id and me["current"] == table.table_id
        # The page's "Open the chat" goes to the private chat with the bot.
        chat = f"https://t.me/{application.bot.username}"
        assert application.bot.username and snap["chat_url"] == chat and me["chat_url"] == chat
        assert me["tables"] == [{"id": table.table_id, "game": "kadi", "title": "Kadi"}]
        status, text = await Client(http, base, stranger).get("api/me")
        assert json.loads(text)["tables"] == [] and json.loads(text)["current"] is None


async def test_a_tap_in_the_app_is_the_keyboards_move_and_the_group_sees_it(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, _ = sim.users
        base = base_of(application)
        app = Client(http, base, amina)
        snap = await app.snapshot(table.table_id)
        marked = await app.tap(table.table_id, snap, "5H")
        assert marked["choices"]["at"] != 0 and marked["version"] == snap["version"], "a marking tap plays nothing"
        keys = marked["choices"]["keys"]
        assert any(key["marked"] and key["card"] == "5H" for key in keys)
        assert any(key["kind"] == "confirm" for key in keys)
        played = await app.tap(table.table_id, marked, "confirm")
        assert played["version"] == snap["version"] + 1 and "5H" not in played["hand"]
        assert played["zones"][0]["cards"] == ["5H"]
        await application.bot_data["karata"].publisher.flush()
        assert "Amina played 5♥️." in sim.table_message().plain
        # Baraka's chat keyboard is his turn now, as the app's press made it.
        assert "Your turn" in sim.hand_message(baraka).plain


async def test_stale_malformed_over_long_and_other_seats_moves_change_nothing(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, _ = sim.users
        base = base_of(application)
        app = Client(http, base, amina)
        snap = await app.tap(table.table_id, await app.snapshot(table.table_id), "5H")
        confirm = next(key for key in snap["choices"]["keys"] if key["kind"] == "confirm")
        path = f"api/table/{table.table_id}/press"
        press = {"version": snap["version"], "digest": snap["choices"]["digest"], "node": confirm["node"]}
        cases = [
            (400, "not json"),
            (400, json.dumps([1, 2])),
            (400, {**press, "node": "7"}),
            (400, {**press, "node": -1}),
            (400, {**press, "digest": "abc"}),
            (400, {**press, "version": True}),
            (413, json.dumps({**press, "pad": "x" * 5000})),
            (409, {**press, "version": snap["version"] - 1}),
        ]
        for expected, body in cases:
            status, text = await app.post(path, body)
            assert status == expected, (body, text)
            assert json.loads(text)["message"]
        # Baraka replays Amina's press as his own: his keyboard is not hers.
        status, text = await Client(http, base, baraka).post(path, press)
        assert status == 409 and json.loads(text)["message"]
        assert (await application.bot_data["karata"].store.get_table(table.table_id)).version == snap["version"]
        status, _ = await app.post(path, press)
        assert status == 200
        status, text = await app.post(path, press)
        assert status == 409, "a replayed request finds the table moved on"
        assert (await application.bot_data["karata"].store.get_table(table.table_id)).version == snap["version"] + 1


async def live(http, base, user, table_id):
    socket = await http.ws_connect(base + f"api/table/{table_id}/live")
    await socket.send_json({"initData": init_data(user)})
    return socket


async def open_app(http, base, user, table_id):
    """`user`'s page opened at the table: their snapshot, then their live socket."""
    snap = await Client(http, base, user).snapshot(table_id)
    return snap, await live(http, base, user, table_id)


async def chat_move_while_barakas_app_is_open(api, application, http, sim, table):
    """Baraka has the app open and Amina plays 5♥️ in chat: his socket shows his turn, his chat hand
    rests. His socket, still open."""
    amina, baraka, _ = sim.users
    snap, socket = await open_app(http, base_of(application), baraka, table.table_id)
    await asyncio.sleep(0.05)
    await chat_press(api, sim, amina, "5♥️", "✔")
    assert (await next_snapshot(socket, after=snap["version"]))["to_act"] == [1]
    await application.bot_data["karata"].publisher.flush()
    assert "Your turn" not in api.last_message(baraka.id).plain, "the chat hand rests while the app is open"
    return socket


async def next_snapshot(socket, timeout=10.0, after=-1, revision=-1):
    """The first snapshot past version `after` and revision `revision` within `timeout` seconds (a
    bound against a hung test, not a speed: how fast a move reaches every screen is
    benchmarks/bench_miniapp.py's)."""
    deadline = time.monotonic() + timeout
    while True:
        message = await asyncio.wait_for(socket.receive_json(), max(0.0, deadline - time.monotonic()))
        if message["type"] == "snapshot" and message["version"] > after and message["revision"] > revision:
            return message


async def test_the_live_socket_shows_a_chat_move_and_catches_up(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, _ = sim.users
        base = base_of(application)
        snap, socket = await open_app(http, base, baraka, table.table_id)
        # Amina plays from the chat.
        await chat_press(api, sim, amina, "5♥️", "✔")
        seen = await next_snapshot(socket, after=snap["version"])
        assert seen["version"] == snap["version"] + 1 and seen["to_act"] == [1]
        assert sorted(seen["hand"]) == sorted(BARAKA)
        await socket.close()
        # A socket opened again starts with the table as it stands.
        again = await live(http, base, baraka, table.table_id)
        caught = await next_snapshot(again)
        assert caught["version"] == seen["version"] and caught["revision"] == seen["revision"]
        await again.close()
        forged = await http.ws_connect(base + f"api/table/{table.table_id}/live")
        await forged.send_json({"initData": init_data(baraka, token="123456789:another-bots-token-xx")})
        refused = await forged.receive_json()
        assert refused["type"] == "error" and refused["error"] == "unauthorized"
        await forged.close()


async def test_the_end_of_a_rounds_pause_reaches_the_app_and_a_reconnection(api, start_bot, http):
    """The player first to act in the new round has the app open: the pause between rounds shows
    no moves; its end (no move, the same version) is a new revision that brings them, on the open
    socket and on one opened again from the paused page."""
    sim = simulation(api, count=2)
    async with start_bot(**APP, KARATA_ROUND_PAUSE_SECONDS=120) as application:
        karata = application.bot_data["karata"]
        await sim.open_table("kadi", "hand_size=5")
        table = await karata.store.live_table(sim.group_id, 0)
        last = await to_the_last_move_of_the_round(karata, table.table_id, random.Random(5))
        user = next(user for user in sim.users if str(user.id) == last.first[0])
        snap, socket = await open_app(http, base_of(application), user, table.table_id)
        await make(karata, table.table_id, last)
        paused = await next_snapshot(socket, after=snap["version"])
        assert paused["prompt"] == "Next round in a moment..."
        await karata.service.timekeeper.end_pause(table.table_id)
        resumed = await next_snapshot(socket, revision=paused["revision"])
        assert resumed["version"] == paused["version"], "the pause's end is no move"
        assert resumed["prompt"].startswith("Your turn"), "the new round's moves"
        fetched = await Client(http, base_of(application), user).snapshot(table.table_id)
        assert fetched["revision"] == resumed["revision"]
        await socket.close()
        # The page still showing the pause reconnects: the socket brings the moves at once.
        again = await live(http, base_of(application), user, table.table_id)
        caught = await next_snapshot(again, revision=paused["revision"])
        assert caught["revision"] == resumed["revision"] and caught["prompt"] == resumed["prompt"]
        await again.close()


async def test_the_chat_hand_rests_while_the_app_is_open_and_catches_up_after(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, _ = sim.users
        base = base_of(application)
        publisher = application.bot_data["karata"].publisher
        hand = api.last_message(baraka.id)
        assert any(
            label == "🃏 Open the table" and data == f"http://127.0.0.1/app/?table={table.table_id}"
            for row in hand.buttons
            for label, data in row
        )
        edits = hand.edit_count
        snap, socket = await open_app(http, base, baraka, table.table_id)
        await asyncio.sleep(0.05)
        await Client(http, base, amina).tap(
            table.table_id, await Client(http, base, amina).snapshot(table.table_id), "5H", "confirm"
        )
        assert (await next_snapshot(socket, after=snap["version"]))["to_act"] == [1]
        await publisher.flush()
        assert api.last_message(baraka.id).edit_count == edits, "no chat edit while the app shows the table"
        assert "Your turn" not in api.last_message(baraka.id).plain
        await socket.close()
        for _ in range(100):
            await publisher.flush()
            if "Your turn" in api.last_message(baraka.id).plain:
                break
            await asyncio.sleep(0.02)
        assert "Your turn" in api.last_message(baraka.id).plain, "closing the app brings the chat up to date"


async def test_no_secret_reaches_the_page_and_the_menu_button_opens_the_app(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina = sim.users[0]
        base = base_of(application)
        app = Client(http, base, amina)
        texts = [(await app.get(path))[1] for path in ("", "api/me", f"api/table/{table.table_id}")]
        secret = DEMO_TOKEN.split(":")[1]
        assert not any(secret in text for text in texts)
        assert api.menu_buttons[""]["type"] == "web_app"
        assert api.menu_buttons[""]["web_app"]["url"] == "http://127.0.0.1/app/"


async def test_without_the_setting_there_is_no_app(api, start_bot, http):
    async with start_bot() as application:
        sim, table = await kadi(api, application)
        status, _ = await Client(http, base_of(application), sim.users[0]).get("api/me")
        assert status == 404
        assert not any(
            "Open the table" in label for row in api.last_message(sim.users[0].id).buttons for label, _ in row
        )
        assert api.menu_buttons == {}


async def test_stopping_the_bot_closes_every_live_socket_at_once(api, start_bot, http):
    """A graceful stop (SIGTERM) must not wait for the open apps: each socket is told the server
    is going away (the page reconnects later) and the bot stops well within its flush time."""
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        amina, baraka, _ = sim.users
        base = base_of(application)
        sockets = []
        for user in (amina, baraka):
            _, socket = await open_app(http, base, user, table.table_id)
            sockets.append(socket)
        # A socket that has not said who it is yet is closed too.
        sockets.append(await http.ws_connect(base + f"api/table/{table.table_id}/live"))
        await asyncio.sleep(0.05)
        assert services_of(application).live.count() == 2
        # Each page reads its socket, as a browser does (it answers the close frame at once).
        readers = [asyncio.ensure_future(closing(socket)) for socket in sockets]
        started = time.monotonic()
    stopped = time.monotonic() - started
    assert stopped < 3.0, f"the bot took {stopped:.1f} s to stop"
    for reader in readers:
        message = await asyncio.wait_for(reader, 1.0)
        assert message.type == aiohttp.WSMsgType.CLOSE and message.data == aiohttp.WSCloseCode.GOING_AWAY


async def closing(socket):
    """The socket's first message that is not a snapshot or a ping (its close)."""
    while (message := await socket.receive()).type == aiohttp.WSMsgType.TEXT:
        pass
    return message


async def test_a_graceful_stop_catches_up_the_chat_hands_of_players_in_the_app(api, start_bot, http):
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        baraka = sim.users[1]
        socket = await chat_move_while_barakas_app_is_open(api, application, http, sim, table)
        reader = asyncio.ensure_future(closing(socket))
    assert (await asyncio.wait_for(reader, 1.0)).type == aiohttp.WSMsgType.CLOSE
    assert "Your turn" in api.last_message(baraka.id).plain, "the stop closed the app's socket and caught the chat up"


async def test_the_page_may_talk_to_its_own_server_only(api, start_bot, http):
    async with start_bot(**APP) as application:
        async with http.get(base_of(application)) as response:
            policy = dict(part.strip().split(" ", 1) for part in response.headers["Content-Security-Policy"].split(";"))
    assert policy["connect-src"] == "'self'", "sockets and requests to this host only"
    assert policy["default-src"] == "'self'" and policy["script-src"] == "'self'"


async def test_the_app_without_its_trailing_slash_redirects_to_it(api, start_bot, http):
    """The page loads its files relative to /app/: an operator's URL without the slash still works."""
    async with start_bot(**APP) as application:
        root = f"http://127.0.0.1:{services_of(application).web.port}"
        async with http.get(root + "/app?table=5", allow_redirects=False) as response:
            assert response.status in (301, 308)
            assert response.headers["Location"] == "/app/?table=5"
        async with http.get(root + "/app") as response:
            assert response.status == 200 and str(response.url) == root + "/app/"
            assert "<script" in await response.text()


async def test_after_a_crash_the_chat_hand_held_back_for_the_app_catches_up_at_the_restart(api, start_bot, http):
    """While Baraka had the app open his chat hand rested; the bot died before he closed it. The
    restart (with the app off) brings his chat hand up to date without waiting for another move."""
    async with start_bot(**APP) as application:
        sim, table = await kadi(api, application)
        baraka = sim.users[1]
        socket = await chat_move_while_barakas_app_is_open(api, application, http, sim, table)
        crash(application)
        await socket.close()
    async with start_bot() as application:
        await application.bot_data["karata"].publisher.flush()
        assert "Your turn" in api.last_message(baraka.id).plain, "the restart caught the chat hand up"
