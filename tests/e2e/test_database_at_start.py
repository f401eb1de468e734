"""`karata run` with a database it cannot use: it stops at once with one line naming the file and
what to do (no traceback, no process that never polls), and leaves the file as it was."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.demo import DEMO_TOKEN
from tables.db_check import DatabaseProblem, check_database
from tables.store import MIGRATIONS, Store

ROOT = Path(__file__).resolve().parents[2]
# Nothing listens here: a bot that got past the check would wait for Telegram, not exit.
NOWHERE = "http://127.0.0.1:9/bot"


def karata_run(db_path: Path, prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "BOT_TOKEN": DEMO_TOKEN, "TELEGRAM_API_BASE_URL": NOWHERE, "KARATA_DB": str(db_path)}
    command = [*(prefix or []), sys.executable, "-m", "bot.cli", "run"]
    # A bound against a hung process, not a speed: a start on a loaded machine takes many seconds.
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)


def stopped_with_one_line(result: subprocess.CompletedProcess, db_path: Path, *words: str) -> str:
    printed = (result.stdout + result.stderr).strip()
    assert result.returncode == 2, printed
    assert "Traceback" not in printed and len(printed.splitlines()) == 1, printed
    assert str(db_path) in printed and all(word in printed for word in words), printed
    return printed


def untouched(folder: Path, name: str, content: bytes) -> None:
    assert (folder / name).read_bytes() == content
    assert sorted(path.name for path in folder.iterdir()) == [name], "no -wal, -shm or journal was made"


def test_random_bytes_are_not_a_database(tmp_path):
    db_path = tmp_path / "karata.db"
    content = os.urandom(8192)
    db_path.write_bytes(content)
    stopped_with_one_line(karata_run(db_path), db_path, "not a usable SQLite database", "backup")
    untouched(tmp_path, "karata.db", content)


def test_a_damaged_header_page_is_not_a_database(tmp_path):
    db_path = tmp_path / "karata.db"
    made = sqlite3.connect(db_path)
    made.execute("CREATE TABLE t (x)")
    made.commit()
    made.close()
    content = bytearray(db_path.read_bytes())
    content[16:100] = os.urandom(84)  # page size, versions, counters: all nonsense
    db_path.write_bytes(bytes(content))
    stopped_with_one_line(karata_run(db_path), db_path, "not a usable SQLite database")
    untouched(tmp_path, "karata.db", bytes(content))


def test_a_database_from_a_newer_karata_is_refused(tmp_path):
    db_path = tmp_path / "karata.db"
    made = sqlite3.connect(db_path)
    made.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    made.close()
    content = db_path.read_bytes()
    printed = stopped_with_one_line(karata_run(db_path), db_path, "newer Karata")
    assert f"schema {len(MIGRATIONS) + 1}" in printed
    untouched(tmp_path, "karata.db", content)


def test_another_programs_database_is_refused(tmp_path):
    db_path = tmp_path / "karata.db"
    made = sqlite3.connect(db_path)
    made.execute("CREATE TABLE invoices (number INTEGER)")
    made.commit()
    made.close()
    content = db_path.read_bytes()
    stopped_with_one_line(karata_run(db_path), db_path, "another program")
    untouched(tmp_path, "karata.db", content)


@pytest.mark.asyncio
async def test_a_karata_database_and_a_new_path_pass(tmp_path):
    check_database(str(tmp_path / "new.db"))  # created at the first start
    store = Store(str(tmp_path / "karata.db"))
    await store.open()
    await store.close()
    check_database(str(tmp_path / "karata.db"))
    with pytest.raises(DatabaseProblem, match="does not exist"):
        check_database(str(tmp_path / "missing" / "karata.db"))


def _read_only_prefix(folder: Path) -> list[str] | None:
    """How to run a command that sees `folder` read-only. Root writes through file modes, so
    root gets a read-only bind mount of it in a mount namespace of its own."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return []
    if shutil.which("unshare") is None:
        return None
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$@"'
    prefix = ["unshare", "-m", "sh", "-c", script, "sh"]
    if subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        return None  # no mount namespaces here (a container without the capability)
    return prefix


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_a_read_only_database_is_refused_before_anything_runs(tmp_path, journal):
    folder = tmp_path / "data"
    folder.mkdir()
    db_path = folder / "karata.db"
    made = sqlite3.connect(db_path)
    made.execute(f"PRAGMA journal_mode={journal}")
    made.execute("PRAGMA user_version = 1")
    made.close()
    content = db_path.read_bytes()
    prefix = _read_only_prefix(folder)
    if prefix is None:
        pytest.skip("cannot make a read-only place here")
    try:
        stopped_with_one_line(karata_run(db_path, prefix), db_path, "cannot be written", "write access")
    finally:
        folder.chmod(0o755)
    untouched(folder, "karata.db", content)


@pytest.mark.asyncio
async def test_a_failure_found_while_migrating_ends_the_process_with_one_line(tmp_path):
    from fakeapi import FakeBotAPI
    from tests.e2e.test_process import output_of, start_karata

    db_path = tmp_path / "karata.db"
    store = Store(str(db_path))
    await store.open()
    await store.close()
    made = sqlite3.connect(db_path)
    made.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")  # the last migration meets its own table
    made.close()
    async with FakeBotAPI(token=DEMO_TOKEN) as api:
        process = await start_karata(api.base_url, str(db_path))
        printed = (await output_of(process)).strip()
    assert process.returncode == 2, printed
    assert "Traceback" not in printed and printed.splitlines()[-1].startswith(
        f"karata run: the database {db_path} failed"
    )
    assert not any(method == "getUpdates" for method, _ in api.calls), "it never polled"
