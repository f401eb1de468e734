"""/forget: a person's name and records leave the database; past matches keep an anonymous seat.

What a person leaves in the database (README.md, "Privacy"): their user row (name, language),
their seats at tables (id and name, also inside each finished table's engine state and action
log, where the engine knows a player by the user id), their results and ratings. Forgetting them,
in one transaction:
- in every finished or cancelled table they sat at, their user id becomes a pseudonym (one per
  /forget, never linked to them: a number above every Telegram user id) in the seats, the
  engine state, the events and the action log, and their seat's name is emptied, so that the
  other players' results and ratings stay as they were and a replay still plays back;
- their results go to the pseudonym (leaderboards never list a pseudonym) and their ratings
  are deleted; their private hand messages' records and their user row are deleted.
Tables still being played are left alone: the person is asked to leave or finish first.

The name must leave the files too, not only the rows: after a forget the store asks the database
to scrub (on SQLite, tables/sqlite_db.py zeroes what it deletes or overwrites and empties the
write-ahead log, which still holds the pages as they were).
"""

from __future__ import annotations

import json
import secrets

from tables.database import Transaction
from tables.models import ANONYMOUS_FROM, TABLE_COLUMNS

# Columns of a table row that hold JSON in which a player appears as the string of their user id.
_JSON_COLUMNS = tuple(name for name, column in TABLE_COLUMNS.items() if column.players)


def pseudonym() -> int:
    return ANONYMOUS_FROM + secrets.randbelow(1 << 40)


async def forget(db: Transaction, user_id: int, anonymous: int) -> int:
    """Forget `user_id` (see the module's docstring) inside the caller's transaction; returns how
    many past tables now show an anonymous seat."""
    old, new = json.dumps(str(user_id)), json.dumps(str(anonymous))
    tables = await db.fetchall(
        f"SELECT table_id, seats, {', '.join(_JSON_COLUMNS)} FROM tables "
        f"WHERE status NOT IN ('lobby', 'playing') AND {db.seated}",
        (user_id,),
    )
    for table_id, seats, *columns in tables:
        changed = {name: _swap(value, old, new) for name, value in zip(_JSON_COLUMNS, columns)}
        changed["seats"] = _anonymous_seats(seats, user_id, anonymous, old, new)
        assignments = ", ".join(f"{name} = ?" for name in changed)
        await db.execute(
            f"UPDATE tables SET {assignments}, creator_id = CASE creator_id WHEN ? THEN ? ELSE creator_id END "
            "WHERE table_id = ?",
            (*changed.values(), user_id, anonymous, table_id),
        )
        for version, player, action, events in await db.fetchall(
            "SELECT version, player, action, events FROM actions WHERE table_id = ?", (table_id,)
        ):
            await db.execute(
                "UPDATE actions SET player = ?, action = ?, events = ?, request = NULL "
                "WHERE table_id = ? AND version = ?",
                (str(anonymous) if player == str(user_id) else player, _swap(action, old, new),
                 _swap(events, old, new), table_id, version),
            )  # fmt: skip
        await db.execute("DELETE FROM screens WHERE table_id = ? AND chat_id = ?", (table_id, user_id))
    await db.execute("UPDATE results SET user_id = ? WHERE user_id = ?", (anonymous, user_id))
    await db.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
    await db.execute("DELETE FROM users WHERE user_id = ?", (user_id,))
    return len(tables)


def _swap(value: str | None, old: str, new: str) -> str | None:
    """The JSON text with the player's id string replaced (ids appear as whole JSON strings)."""
    return value.replace(old, new) if value else value


def _anonymous_seats(seats: str, user_id: int, anonymous: int, old: str, new: str) -> str:
    listed = json.loads(_swap(seats, old, new) or "[]")
    for seat in listed:
        if seat.get("user_id") == user_id:
            seat["user_id"], seat["name"] = anonymous, ""
    return json.dumps(listed)
