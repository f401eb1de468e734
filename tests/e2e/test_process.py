"""The bot as an operator runs it: `karata run` in its own process against the fake Bot API.

Start-up with a refused token or an unreachable API, a graceful stop (SIGTERM) in the middle of
a game, and a kill -9 after answered presses (on both stores), as a process sees them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiosqlite
import pytest

from bot.demo import DEMO_TOKEN
from fakeapi import FakeBotAPI
from handlers.i18n import translator
from handlers.presentation.games import renderer_for
from tables.database import connect
from tables.store import MIGRATIONS, Store
from tests.e2e.conftest import TELEGRAM_SECOND, simulation

pytestmark = pytest.mark.asyncio

ROOT = Path(__file__).resolve().parents[2]
# Bounds against a hung process, not speeds: a start on a loaded machine takes many seconds.
START_SECONDS = 120


async def start_karata(base_url: str, db_path: str, token: str = DEMO_TOKEN, **env: str) -> asyncio.subprocess.Process:
    environment = {
        **os.environ,
        "BOT_TOKEN": token,
        "TELEGRAM_API_BASE_URL": base_url,
        "KARATA_DB": db_path,
        "KARATA_GROUP_LANGUAGE": "en",
        "KARATA_NUDGE_SECONDS": "0",
        "KARATA_TURN_SECONDS": "0",
        "KARATA_HTTP_LISTEN": "127.0.0.1",
        "KARATA_HTTP_PORT": "0",
        **env,
    }
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "run",
        cwd=ROOT,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def output_of(process: asyncio.subprocess.Process, timeout: float = START_SECONDS) -> str:
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout)
    return stdout.decode() + stderr.decode()


async def test_a_refused_token_is_said_in_one_line_and_never_printed(tmp_path):
    secret = "987654:this-token-is-not-known-to-telegram"
    async with FakeBotAPI(token=DEMO_TOKEN) as api:
        process = await start_karata(api.base_url, str(tmp_path / "k.db"), token=secret)
        printed = await output_of(process)
    assert process.returncode == 2
    assert secret not in printed and secret.split(":")[1] not in printed
    assert "Traceback" not in printed
    assert "Telegram refused BOT_TOKEN" in printed


async def test_an_unreachable_api_is_tried_again_with_a_clear_line(tmp_path, unused_tcp_port):
    process = await start_karata(f"http://127.0.0.1:{unused_tcp_port}/bot", str(tmp_path / "k.db"))
    assert process.stderr is not None
    lines: list[str] = []
    while sum("cannot reach the Bot API" in line for line in lines) < 2:
        line = await asyncio.wait_for(process.stderr.readline(), START_SECONDS)
        assert line, "karata gave up: " + "".join(lines)
        lines.append(line.decode())
    process.send_signal(signal.SIGTERM)
    printed = "".join(lines) + await output_of(process)
    assert "Traceback" not in printed
    assert DEMO_TOKEN not in printed and DEMO_TOKEN.split(":")[1] not in printed


async def test_sigterm_right_after_two_quick_moves_leaves_the_latest_table(tmp_path):
    db_path = str(tmp_path / "k.db")
    async with FakeBotAPI(token=DEMO_TOKEN, flood_limits=True, telegram_second=TELEGRAM_SECOND) as api:
        sim = simulation(api, count=2, seed=5)
        process = await start_karata(api.base_url, db_path, KARATA_TELEGRAM_SECOND=str(TELEGRAM_SECOND))
        await api.wait_until(
            lambda: any(method == "setMyCommands" for method, _ in api.calls), timeout=START_SECONDS, what="start"
        )
        await sim.open_table("kadi")
        for _attempt in range(20):
            if await _version(db_path) >= 3:
                break  # two moves are in
            await _press(api, sim)
        process.send_signal(signal.SIGTERM)
        printed = await output_of(process)
        assert process.returncode == 0, printed
        store = Store(db_path, bot_id=int(DEMO_TOKEN.partition(":")[0]))  # the tables of the bot that ran
        await store.open()
        table = await store.live_table(sim.group_id, 0)
        screens = await store.screens_of(table.table_id)
        await store.close()
        assert table.version >= 3, "two moves were made"
        assert table.revision == await _value(db_path, "published_revision"), "every change reached the chats"
        shown = sim.table_message()
        assert shown.message_id == screens["table"].message_id
        latest = renderer_for("kadi").event_line(table.recent_events[-1], translator("en"), table.names)
        assert latest and latest in shown.plain, (latest, shown.plain)
        assert api.flood_stats().violations == 0


async def _value(db_path: str, column: str) -> int:
    async with aiosqlite.connect(db_path) as db:
        async with db.execute(f"SELECT {column} FROM tables ORDER BY table_id DESC LIMIT 1") as cursor:
            row = await cursor.fetchone()
    return row[0] if row else 0


async def _version(db_path: str) -> int:
    return await _value(db_path, "version") if Path(db_path).exists() else 0


async def test_json_logs_are_one_object_a_line_without_the_token(tmp_path):
    import json

    async with FakeBotAPI(token=DEMO_TOKEN) as api:
        process = await start_karata(api.base_url, str(tmp_path / "k.db"), KARATA_LOG_FORMAT="json")
        await api.wait_until(
            lambda: any(method == "setMyCommands" for method, _ in api.calls), timeout=START_SECONDS, what="start"
        )
        process.send_signal(signal.SIGTERM)
        printed = await output_of(process)
    assert process.returncode == 0, printed
    lines = [json.loads(line) for line in printed.splitlines() if line.strip()]
    assert any(line["message"].startswith("HTTP server listening on 127.0.0.1:") for line in lines), lines
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert DEMO_TOKEN not in printed and DEMO_TOKEN.split(":")[1] not in printed


async def _stored(database: str, table_id: int) -> tuple[int, list[tuple[int, str | None]]]:
    """A table's stored version and its action log's (version, request) pairs, read apart from the bot."""
    reader = connect(database)
    await reader.open(MIGRATIONS)
    try:
        (row,) = await reader.all("SELECT version FROM tables WHERE table_id = ?", (table_id,))
        actions = await reader.all(
            "SELECT version, request FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        )
    finally:
        await reader.close()
    return row[0], [(version, request) for version, request in actions]


async def _started(api: FakeBotAPI, starts: int) -> None:
    await api.wait_until(
        lambda: sum(method == "setMyCommands" for method, _ in api.calls) >= starts, timeout=30, what="the bot's start"
    )


async def _press(api: FakeBotAPI, sim) -> None:
    """A player presses a button of their hand once one has any (a restarted bot shows them
    again; between rounds there are none for a moment)."""
    await api.wait_until(lambda: _has_buttons(sim), timeout=60, what="a hand with buttons")
    assert await sim.step()


def _has_buttons(sim) -> bool:
    hands = [sim.hand_message(user) for user in sim.users]
    return any(data.startswith("T:") for hand in hands if hand for row in hand.buttons for _, data in row if data)


@pytest.mark.long
async def test_kill_9_loses_no_acknowledged_move_and_applies_none_twice(database):
    """After each press is answered the process may die at once (SIGKILL, no goodbye): every
    answered move is in the store after the restart, the press Telegram delivers again is not
    applied a second time, and the game goes on."""
    async with FakeBotAPI(token=DEMO_TOKEN, telegram_second=TELEGRAM_SECOND) as api:
        sim = simulation(api, count=2, seed=5)
        process = await start_karata(api.base_url, database, KARATA_TELEGRAM_SECOND=str(TELEGRAM_SECOND))
        try:
            await _started(api, 1)
            await sim.open_table("kadi")
            table_id = 1
            acknowledged = 1
            for kill in range(1, 4):
                goal = acknowledged + 2
                for _attempt in range(40):  # a press may pick cards without moving yet
                    if acknowledged >= goal:
                        break
                    await _press(api, sim)
                    acknowledged, _ = await _stored(database, table_id)
                process.kill()
                await process.wait()
                assert (await _stored(database, table_id))[0] == acknowledged, "an answered move was lost"
                process = await start_karata(api.base_url, database, KARATA_TELEGRAM_SECOND=str(TELEGRAM_SECOND))
                await _started(api, kill + 1)
                await api.settle(quiet=0.3, timeout=20)
                assert (await _stored(database, table_id))[0] == acknowledged, "a press delivered again moved twice"
            await _press(api, sim)  # the game goes on after the restarts
            version, actions = await _stored(database, table_id)
        finally:
            process.send_signal(signal.SIGTERM)
            await output_of(process)
    assert [number for number, _ in actions] == list(range(2, version + 1)), "one action per version"
    requests = [request for _, request in actions if request is not None]
    assert len(requests) == len(set(requests)), "no press made two actions"
    assert version >= 7, "two moves were made before each kill"
