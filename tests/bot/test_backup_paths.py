"""`karata backup FILE` to a place that cannot take a file: one line naming the path and the reason,
a failing exit status, and nothing left behind."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main


@pytest.fixture
def database(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "karata.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE tables (table_id INTEGER PRIMARY KEY)")
    connection.close()
    monkeypatch.setenv("KARATA_DB", str(path))
    return path


def backup_to(target: Path, capsys) -> tuple[int, str]:
    code = main(["backup", str(target)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize(
    "where, reason",
    [
        (lambda tmp: tmp / "no-such-folder" / "backup.db", "the folder {tmp}/no-such-folder does not exist"),
        (lambda tmp: Path("/proc/backup.db"), "the folder /proc takes no new files"),
        (lambda tmp: tmp / "karata.db" / "backup.db", "{tmp}/karata.db is a file, not a folder"),
        (lambda tmp: tmp, "it is a folder"),
    ],
    ids=["missing folder", "/proc", "a file as a folder", "a folder as the file"],
)
def test_an_unwritable_backup_path_is_one_line_with_its_reason(database, tmp_path, capsys, where, reason):
    target = where(tmp_path)
    code, said = backup_to(target, capsys)
    assert code == 2
    assert said.splitlines() == [f"karata backup: cannot write the backup to {target}: {reason.format(tmp=tmp_path)}"]
    assert not Path(f"{target}.partial").exists()


def test_a_writable_path_gets_the_backup(database, tmp_path, capsys):
    code, said = backup_to(tmp_path / "copy.db", capsys)
    assert code == 0, said
    assert (tmp_path / "copy.db").is_file() and not (tmp_path / "copy.db.partial").exists()


def test_a_database_that_cannot_be_read_is_one_line_naming_both_files(database, tmp_path, capsys):
    database.write_bytes(b"not a database, " * 512)
    target = tmp_path / "copy.db"
    code, said = backup_to(target, capsys)
    assert code == 2
    assert said.splitlines() == [f"karata backup: cannot copy {database} to {target}: file is not a database"]
    assert not Path(f"{target}.partial").exists() and not target.exists()


def test_another_programs_database_is_named_and_no_copy_is_left(database, tmp_path, capsys):
    database.unlink()
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    connection.close()
    target = tmp_path / "copy.db"
    code, said = backup_to(target, capsys)
    assert code == 2
    assert said.splitlines() == [f"karata backup: {database} is not a Karata database"]
    assert not Path(f"{target}.partial").exists() and not target.exists()
