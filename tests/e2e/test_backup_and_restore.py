"""An operator's backup while a match is played, and its restore into a fresh bot: every move the
players saw acknowledged before the backup is there, and the match plays on."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import simulation
from tests.tables.matches import winning_policy

pytestmark = pytest.mark.asyncio

ROOT = Path(__file__).resolve().parents[2]


async def karata(*args: str, db_path: str) -> tuple[int, str]:
    """`karata ARGS` as an operator types it, with KARATA_DB set."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", *args,
        cwd=ROOT, env={**os.environ, "KARATA_DB": db_path},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
    return process.returncode or 0, stdout.decode() + stderr.decode()


async def test_a_backup_taken_mid_match_restores_every_acknowledged_move(api, start_bot, db_path, tmp_path):
    sim = simulation(api, count=2, seed=5)
    backup_file = str(tmp_path / "backup.db")
    async with start_bot() as application:
        store = application.bot_data["karata"].store
        sim.application = application
        await sim.open_table("kadi")
        table = await store.live_table(sim.group_id, 0)
        for _press in range(40):
            if (await store.get_table(table.table_id)).version >= 4:
                break
            assert await sim.step(), "somebody has a button to press"
        # Every press so far was answered: these moves are what the players were told happened.
        acknowledged = await store.actions_of(table.table_id)
        assert len(acknowledged) >= 3

        code, said = await karata("backup", backup_file, db_path=db_path)
        assert code == 0 and "backed up" in said, said
        code, said = await karata("restore", backup_file, db_path=db_path)
        assert code == 2, said
        assert "in use by a running bot" in said and "stop it first" in said and "Traceback" not in said

        for _press in range(3):  # moves after the backup: not in it
            assert await sim.step()
        later = await store.actions_of(table.table_id)
        assert len(later) > len(acknowledged)

    fresh = str(tmp_path / "fresh.db")
    code, said = await karata("restore", backup_file, db_path=fresh)
    assert code == 0 and "restored" in said, said
    async with start_bot(KARATA_DB=fresh) as application:
        karata_ = application.bot_data["karata"]
        restored = await karata_.store.actions_of(table.table_id)
        assert restored[: len(acknowledged)] == acknowledged
        assert len(restored) < len(later), "the backup is of its moment, not of the end"
        # The match plays on to its end from the restored position.
        players = [str(user.id) for user in sim.users]
        for _move in range(3000):
            loaded = await karata_.service.load(table.table_id)
            if loaded.table.status != "playing":
                break
            player = loaded.game.to_act(loaded.state)[0]
            action = winning_policy(loaded.game, loaded.state, player, players[0])
            assert (await karata_.service.play.act(table.table_id, player, loaded.table.version, action)).ok
        assert loaded.table.status == "finished"


async def test_restore_refuses_what_is_not_a_karata_backup(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    code, said = await karata("restore", str(junk), db_path=str(tmp_path / "k.db"))
    assert code == 2 and "not a SQLite database" in said and "Traceback" not in said
    assert not (tmp_path / "k.db").exists()


async def test_a_second_bot_on_the_same_database_refuses_to_start(api, start_bot):
    from bot.backup import DatabaseInUse

    async with start_bot():
        with pytest.raises(DatabaseInUse, match="in use by a running bot"):
            async with start_bot():
                pass
    async with start_bot():  # once the first stopped, the database is free again
        pass
