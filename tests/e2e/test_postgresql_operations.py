"""Moving to PostgreSQL as an operator does it: `karata copy-db` copies a played SQLite database
into a new PostgreSQL one and checks the counts, the bot then runs on it with every record and
the next table id; `karata backup` on PostgreSQL names the tool to use instead."""

from __future__ import annotations

import time

import pytest

from bot.demo import demo_settings
from bot.runner import running_application
from tables.seasons import WEEK
from tests.conftest import postgres_database
from tests.e2e.conftest import simulation
from tests.e2e.helpers import play_a_match_amina_wins
from tests.e2e.test_backup_and_restore import karata
from tests.e2e.test_records import ask

pytestmark = pytest.mark.asyncio


async def test_a_played_sqlite_database_moves_into_postgresql_with_every_record(api, start_bot, db_path, request):
    target = postgres_database(request)
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    async with start_bot() as application:
        played = await play_a_match_amina_wins(application, sim)
        await application.bot_data["karata"].store.seasons.set_length(sim.group_id, WEEK, time.time())

    code, said = await karata("copy-db", db_path, target, db_path=db_path)
    assert code == 0, said
    assert "the counts match (chats 0, users 3, tables 1, actions " in said, said
    code, said = await karata("copy-db", db_path, target, db_path=db_path)
    assert code == 2 and "already holds tables" in said and "Traceback" not in said

    async with running_application(demo_settings(api, target)) as application:
        board = (await ask(api, baraka, sim.group_id, "/top")).plain
        assert "Amina" in board and "Baraka" in board
        history = (await ask(api, baraka, sim.group_id, "/history")).plain
        assert "1. Kadi" in history
        await sim.open_table("kadi")
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        assert table.table_id == played.table.table_id + 1, "ids go on after the copied ones"
        [record] = await application.bot_data["karata"].store.records.of_player(amina.id, None)
        assert (record.game, record.played, record.won) == ("kadi", 1, 1), "her record came along"
        seasons = application.bot_data["karata"].store.seasons
        assert await seasons.length_of(sim.group_id) == WEEK, "and the group's seasons"


async def test_backup_and_restore_name_the_postgresql_tools_instead(request):
    url = postgres_database(request)
    code, said = await karata("backup", "copy.dump", db_path=url)
    assert code == 2 and "pg_dump --format=custom" in said and "Traceback" not in said
    assert "KARATA_DB is a PostgreSQL database" in said and len(said.strip().splitlines()) == 1
    code, said = await karata("restore", "copy.dump", db_path=url)
    assert code == 2 and "pg_restore" in said
