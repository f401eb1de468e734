"""After /forget a player's name is gone from the database's files themselves, not only from its
rows: SQLite keeps deleted and overwritten rows' bytes in free space and in its write-ahead log,
where anyone who copies the file could read them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import simulation
from tests.e2e.helpers import play_a_match_amina_wins
from tests.e2e.test_privacy_and_status import shows
from tests.e2e.test_records import ask

pytestmark = pytest.mark.asyncio


def files_holding(db_path: str, text: str) -> list[str]:
    """Which of the database's files on disk hold `text`'s bytes."""
    paths = [Path(db_path + suffix) for suffix in ("", "-wal", "-journal")]
    return [path.name for path in paths if path.exists() and text.encode() in path.read_bytes()]


async def test_a_forgotten_name_is_in_neither_the_database_file_nor_its_log(api, start_bot, db_path):
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    async with start_bot() as application:
        await play_a_match_amina_wins(application, sim)
        # Her name was written many times over: her user row, the seats of every version of the table.
        assert files_holding(db_path, amina.first_name)
        asked = await ask(api, amina, amina.id, "/forget")
        query = await api.press_text(amina, amina.id, asked.message_id, "Forget me")
        await api.wait_for_answer(query)
        await shows(api, amina.id, asked.message_id, "Done: I forgot your name and records.")

        assert files_holding(db_path, amina.first_name) == []
        assert files_holding(db_path, baraka.first_name), "the others' names are kept"
        assert "Amina" not in (await ask(api, baraka, sim.group_id, "/top")).plain
