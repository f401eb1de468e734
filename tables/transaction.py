"""What a database's `transaction(work)` hands to `work` (tables/database.py): a module of its
own, so that both databases (tables/sqlite_db.py, tables/postgres_db.py) name it without
importing the module that chooses between them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class Transaction(Protocol):
    # SQL condition: some seat of the row of `tables` has the user id given as its one parameter.
    seated: str

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]: ...
