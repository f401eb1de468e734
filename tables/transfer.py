"""Copy a database into another (`karata copy-db`: an SQLite file into PostgreSQL), every table,
in one transaction, then compare each table's count of rows.

Both databases are opened as the store opens them (so both are at the same migration); the
target must hold no tables yet. The rows go over as they are, ids included: table ids appear
inside Join links and replay files.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.database import Database, Transaction
from tables.store import Store

# Every table of the schema, each after the tables its rows refer to.
TABLES = (
    "chats", "users", "tables", "actions", "screens", "polls", "results", "ratings", "records_built",
    "handled_updates", "seasons", "seasons_checked",
)  # fmt: skip
# Tables whose migration wrote a row of its own, which the source's rows replace.
MIGRATIONS_ROWS = ("records_built", "seasons_checked")
BATCH = 1000


class CopyProblem(Exception):
    """The copy was refused or did not check out; nothing was written (or it was rolled back)."""


async def copy_rows(source: Database, target: Database, tables: Sequence[str]) -> None:
    """Copy `tables`' rows (the columns both databases have) inside one transaction of `target`."""
    batches: dict[str, tuple[str, list[list]]] = {}
    for table in tables:
        theirs = set(await target.columns(table))
        columns = [name for name in await source.columns(table) if name in theirs]
        rows = [list(row) for row in await source.all(f"SELECT {', '.join(columns)} FROM {table}")]
        marks = ", ".join("?" * len(columns))
        batches[table] = (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    async def write(transaction: Transaction) -> None:
        for table in MIGRATIONS_ROWS:
            if table in batches:
                await transaction.execute(f"DELETE FROM {table}")
        for insert, rows in batches.values():
            for start in range(0, len(rows), BATCH):
                await transaction.executemany(insert, rows[start : start + BATCH])
        await target.ids_follow_rows(transaction)

    await target.transaction(write)


async def counts(database: Database) -> dict[str, int]:
    return {table: (await database.all(f"SELECT COUNT(*) FROM {table}"))[0][0] for table in TABLES}


async def copy_database(source: str, target: str) -> dict[str, int]:
    """Copy the database at `source` into the empty one at `target` (paths or URLs); returns the
    rows copied per table, which the target then holds too."""
    stores = Store(source), Store(target)
    opened: list[Store] = []
    try:
        for store in stores:
            await store.open()
            opened.append(store)
        origin, destination = (store.database for store in stores)
        if (await destination.all("SELECT COUNT(*) FROM tables"))[0][0]:
            raise CopyProblem("the target database already holds tables: copy into a new, empty database")
        await copy_rows(origin, destination, TABLES)
        copied, held = await counts(origin), await counts(destination)
        if copied != held:
            wrong = ", ".join(
                f"{table} {copied[table]} -> {held[table]}" for table in TABLES if copied[table] != held[table]
            )
            raise CopyProblem(f"the counts differ after the copy: {wrong}")
        return copied
    finally:
        for store in opened:
            await store.close()
