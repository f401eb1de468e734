"""How many tables are open, by game and status: the owner's /status and the operator's /metrics."""

from __future__ import annotations

from tables.store import Store


async def open_tables(store: Store) -> dict[tuple[str, str], int]:
    rows = await store.database.all(
        "SELECT game, status, COUNT(*) FROM tables WHERE status IN ('lobby', 'playing') AND bot_id = ? "
        "GROUP BY game, status",
        (store.bot_id,),
    )
    return {(game, status): count for game, status, count in rows}
