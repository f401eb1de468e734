"""Storage for chats, users, tables, the action log, and what each message shows: SQLite (a file,
the default) or PostgreSQL (a URL), behind tables/database.py.

Schema changes are numbered migrations applied in order at start-up, the same history on both
databases (written in SQLite's types; PostgreSQL's module widens them); the database records how
far it has come. A table row carries its engine state and a version that grows by one with each
applied action; the action (with its events and the request that made it) is written in the
same transaction, so a move is committed before anyone sees its result.
A change that ends a match writes the match's records (tables/records.py) in that transaction
too, and opening a database builds the records again when they were computed another way.

What each message shows (`screens`) and how far a table's messages have caught up
(`published_revision`) are written by their own statements, never by `save_table`: a delivery
that finishes while a move is being saved can then never be overwritten by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tables.arena_nights import MOVE_CHAT as MOVE_ARENAS
from tables.arena_nights import ArenaStore
from tables.database import Database, Transaction, connect
from tables.metrics import UNREAD, Metrics
from tables.models import TABLE_COLUMNS, Shown, TableRow, UserRow
from tables.privacy import forget, pseudonym
from tables.records import FLEET, Records, ensure_built, record_match
from tables.seasons import MOVE_CHAT as MOVE_SEASONS
from tables.seasons import Seasons
from tables.turns import MOVE, RECORD, WriteTurns

CACHE_SIZE = 50_000

MIGRATIONS: Sequence[str] = (
    # 1: the first schema
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        language TEXT,
        title TEXT
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        first_name TEXT NOT NULL,
        language TEXT,
        language_chosen INTEGER NOT NULL DEFAULT 0,
        dm_ok INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE tables (
        table_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        options TEXT NOT NULL,
        turn_seconds INTEGER NOT NULL,
        seats TEXT NOT NULL,
        seed TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        table_message_id INTEGER,
        deadline REAL,
        deadline_version INTEGER,
        warned INTEGER NOT NULL DEFAULT 0,
        recent_events TEXT NOT NULL DEFAULT '[]',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    -- One live table per chat and forum topic; finished ones stay for the record.
    CREATE UNIQUE INDEX one_live_table ON tables(chat_id, thread_id)
        WHERE status IN ('lobby', 'playing');
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        version INTEGER NOT NULL,
        player TEXT NOT NULL,
        action TEXT NOT NULL,
        applied_at REAL NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    CREATE TABLE hand_messages (
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        user_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    """,
    # 2: consent to options that every player must accept before the deal (Kadi's hiding mode)
    """
    ALTER TABLE tables ADD COLUMN consents TEXT;
    """,
    # 3: a short pause between rounds, while the group reads the round's results
    """
    ALTER TABLE tables ADD COLUMN paused_until REAL;
    """,
    # 4: group polls (Lopti's Rule Votes): which table and question a Telegram poll belongs to
    """
    CREATE TABLE polls (
        poll_id TEXT PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        key TEXT NOT NULL,
        chat_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        open INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX polls_of_table ON polls(table_id, open);
    """,
    # 5: what every message of a table shows, kept in the database so that a restart sends
    # only what changed; the row keeps what messages are rendered from besides the state;
    # actions keep their events and the request that made them (a redelivered press is
    # answered as what it did); the armed length of every timer survives a restart.
    """
    CREATE TABLE screens (
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        slot TEXT NOT NULL,
        chat_id INTEGER NOT NULL,
        message_id INTEGER,
        shown TEXT NOT NULL,
        PRIMARY KEY (table_id, slot)
    );
    INSERT INTO screens (table_id, slot, chat_id, message_id, shown)
        SELECT table_id, 'table', chat_id, table_message_id, '' FROM tables WHERE table_message_id IS NOT NULL;
    INSERT INTO screens (table_id, slot, chat_id, message_id, shown)
        SELECT table_id, 'hand:' || user_id, user_id, message_id, '' FROM hand_messages;
    DROP TABLE hand_messages;
    ALTER TABLE tables DROP COLUMN table_message_id;
    ALTER TABLE tables ADD COLUMN deadline_seconds REAL;
    UPDATE tables SET deadline_seconds = turn_seconds WHERE deadline IS NOT NULL;
    ALTER TABLE tables ADD COLUMN windows TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE tables ADD COLUMN notes TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE tables ADD COLUMN round_events TEXT;
    ALTER TABLE tables ADD COLUMN nudged TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN unreachable TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN closed_reason TEXT;
    ALTER TABLE tables ADD COLUMN join_token TEXT NOT NULL DEFAULT '';
    ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tables ADD COLUMN published_revision INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX tables_behind ON tables(revision, published_revision) WHERE revision > published_revision;
    ALTER TABLE actions ADD COLUMN events TEXT;
    ALTER TABLE actions ADD COLUMN request TEXT;
    CREATE INDEX actions_by_request ON actions(request) WHERE request IS NOT NULL;
    """,
    # 6: records derived from the stored matches (tables/records.py): each counted match's
    # standings and the ratings they lead to, built at the next start (`records_built` says by
    # which formula); a player's choice to stay off the leaderboards; and the deal a table was
    # given when it did not come from its seed, which its replay needs.
    """
    ALTER TABLE users ADD COLUMN stats_hidden INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tables ADD COLUMN deal TEXT;
    CREATE TABLE results (
        table_id INTEGER NOT NULL REFERENCES tables(table_id),
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        finished_at REAL NOT NULL,
        place INTEGER NOT NULL,
        score INTEGER NOT NULL,
        team INTEGER,
        PRIMARY KEY (table_id, seat)
    );
    -- /stats in a group and everywhere: index-only aggregates over one player's results.
    CREATE INDEX results_in_chat ON results(user_id, chat_id, game, finished_at, table_id, place, score);
    CREATE INDEX results_anywhere ON results(user_id, game, finished_at, table_id, place, score);
    -- /history: one row per match (its first seat), newest first.
    CREATE INDEX results_history ON results(chat_id, finished_at, table_id) WHERE seat = 0;
    CREATE TABLE ratings (
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        matches INTEGER NOT NULL,
        PRIMARY KEY (chat_id, game, user_id)
    );
    CREATE INDEX ratings_board ON ratings(chat_id, game, ordinal);
    CREATE TABLE records_built (formula INTEGER NOT NULL);
    INSERT INTO records_built (formula) VALUES (0);
    """,
    # 7: computer players (seats with negative user ids): their level, whether one moves for a
    # player who ran out of time, and whether the table waits for one (a restart re-arms it).
    """
    ALTER TABLE tables ADD COLUMN level TEXT NOT NULL DEFAULT 'strong';
    ALTER TABLE tables ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tables ADD COLUMN computer_turn INTEGER NOT NULL DEFAULT 0;
    """,
    # 8: updates handled to their end (all but moves, which the action log names): one Telegram
    # delivers again (after a crash, a webhook retried) is then a no-op. Kept a day, as Telegram
    # keeps an update.
    """
    CREATE TABLE handled_updates (
        update_id INTEGER PRIMARY KEY,
        handled_at REAL NOT NULL
    );
    """,
    # 9: seasons (tables/seasons.py): each group's season length and the end of the last season
    # announced there, how far the announcer has looked (0: from the next start), and the
    # indexes a season's standings and the groups with matches in a period are read by.
    """
    CREATE TABLE seasons (
        chat_id INTEGER PRIMARY KEY,
        length TEXT NOT NULL,
        announced_end REAL NOT NULL
    );
    CREATE TABLE seasons_checked (up_to REAL NOT NULL);
    INSERT INTO seasons_checked (up_to) VALUES (0);
    CREATE INDEX results_season ON results(chat_id, game, finished_at);
    CREATE INDEX results_finished ON results(finished_at, chat_id) WHERE seat = 0;
    """,
    # 10: a fleet of bots on one database (docs/OPERATIONS.md, "A fleet"): each table belongs to
    # the bot that opened it (0: a table from before, which the next bot to start takes), one
    # live table per bot, chat and topic; each bot's update ids and season announcer's progress
    # are its own. (And the `deadline_version` column, never read, goes.)
    """
    ALTER TABLE tables ADD COLUMN bot_id INTEGER NOT NULL DEFAULT 0;
    DROP INDEX one_live_table;
    CREATE UNIQUE INDEX one_live_table ON tables(bot_id, chat_id, thread_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX tables_of_bot ON tables(bot_id, status);
    CREATE TABLE handled_updates_of_bots (
        bot_id INTEGER NOT NULL,
        update_id INTEGER NOT NULL,
        handled_at REAL NOT NULL,
        PRIMARY KEY (bot_id, update_id)
    );
    INSERT INTO handled_updates_of_bots (bot_id, update_id, handled_at)
        SELECT 0, update_id, handled_at FROM handled_updates;
    DROP TABLE handled_updates;
    ALTER TABLE handled_updates_of_bots RENAME TO handled_updates;
    ALTER TABLE seasons_checked ADD COLUMN bot_id INTEGER NOT NULL DEFAULT 0;
    CREATE UNIQUE INDEX seasons_checked_of_bot ON seasons_checked(bot_id);
    ALTER TABLE tables DROP COLUMN deadline_version;
    """,
    # 11: arena nights (tables/arena_nights.py): a group's timed competition, its entrants and
    # its standings message; a table it seated names it (several arena tables play at once in
    # one chat and topic, so the one-live-table rule leaves them out); each group's arena
    # settings (who may open one, whether computer players fill a seat).
    """
    CREATE TABLE arena_nights (
        arena_id INTEGER PRIMARY KEY AUTOINCREMENT,
        bot_id INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER NOT NULL DEFAULT 0,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        seconds REAL NOT NULL,
        computers INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        join_token TEXT NOT NULL,
        entrants TEXT NOT NULL DEFAULT '[]',
        ends_at REAL,
        message_id INTEGER,
        shown TEXT NOT NULL DEFAULT '',
        told INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_live_arena ON arena_nights(bot_id, chat_id) WHERE status IN ('open', 'running', 'closing');
    CREATE INDEX arena_nights_untold ON arena_nights(bot_id, told);
    CREATE TABLE arena_settings (
        chat_id INTEGER PRIMARY KEY,
        anyone INTEGER NOT NULL DEFAULT 0,
        computers INTEGER NOT NULL DEFAULT 0
    );
    ALTER TABLE tables ADD COLUMN arena_id INTEGER;
    CREATE INDEX tables_of_arena ON tables(arena_id, status) WHERE arena_id IS NOT NULL;
    DROP INDEX one_live_table;
    CREATE UNIQUE INDEX one_live_table ON tables(bot_id, chat_id, thread_id)
        WHERE status IN ('lobby', 'playing') AND arena_id IS NULL;
    """,
    # 12: records per bot beside the fleet's (`KARATA_RECORDS`): each result names the bot whose
    # table made it, and ratings are kept for the fleet (bot 0) and for each bot; the bots' own
    # are built at the next start.
    """
    ALTER TABLE results ADD COLUMN bot_id INTEGER NOT NULL DEFAULT 0;
    UPDATE results SET bot_id = (SELECT tables.bot_id FROM tables WHERE tables.table_id = results.table_id);
    CREATE TABLE ratings_of_bots (
        bot_id INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        matches INTEGER NOT NULL,
        PRIMARY KEY (bot_id, chat_id, game, user_id)
    );
    INSERT INTO ratings_of_bots (bot_id, chat_id, game, user_id, mu, sigma, ordinal, matches)
        SELECT 0, chat_id, game, user_id, mu, sigma, ordinal, matches FROM ratings;
    DROP TABLE ratings;
    ALTER TABLE ratings_of_bots RENAME TO ratings;
    CREATE INDEX ratings_board ON ratings(bot_id, chat_id, game, ordinal);
    UPDATE records_built SET formula = 0;
    """,
)

# How long a handled update is remembered (Telegram keeps an unconfirmed update for 24 hours).
HANDLED_UPDATE_SECONDS = 24 * 3600
# How long a ballot waits for its poll's row: the time between Telegram sending a poll and this
# process storing its id is one answer's trip and one write, far less on a working store.
EARLY_BALLOT_SECONDS = 10.0

# The columns `save_table` writes: everything the table service decides under the table's lock.
_SAVED = tuple(name for name, column in TABLE_COLUMNS.items() if not column.fixed)
# The columns `create_table` writes: all but the id the database gives.
_CREATED = tuple(name for name in TABLE_COLUMNS if name != "table_id")


def _table_from_row(row: Any) -> TableRow:
    return TableRow(**{name: column.load(row[name]) for name, column in TABLE_COLUMNS.items()})


def _in_turn(priority: int):
    """Writes take turns (tables/turns.py): SQLite's one connection must never commit another
    write's half-done transaction, and a waiting move goes before waiting records on both."""

    def decorate(method):
        @functools.wraps(method)
        async def wrapper(self: Store, *args: Any, **kwargs: Any) -> Any:
            async with self._writes.turn(priority):
                return await method(self, *args, **kwargs)

        return wrapper

    return decorate


_serialized = _in_turn(RECORD)
_a_move = _in_turn(MOVE)  # a table's change: it goes before waiting records


class Store:
    def __init__(self, target: str, bot_id: int = 0, fleet_records: bool = False):
        """`target`: an SQLite file's path, or a `postgresql://` URL. `bot_id`: the bot this
        process is (its token's number); of the tables it sees and acts on only its own.
        `fleet_records`: /stats, /top and /history count every bot's matches, not only its own."""
        self.path = target
        self.bot_id = bot_id
        self.fleet_records = fleet_records
        self.database: Database = connect(target)
        self._writes = WriteTurns()
        self.metrics = UNREAD  # the bot's own, once the composition root gives it (bot/app.py)
        # Users and chat languages are read on every update and change rarely; a write of this
        # process drops its entry (another bot of a fleet's write reaches it at the next start).
        self._users: dict[int, UserRow] = {}
        self._chat_languages: dict[int, str | None] = {}
        # Ballots waiting for their poll's row (`stored_poll`), by poll id.
        self._ballots_waiting: dict[str, list[asyncio.Event]] = {}

    @property
    def metrics(self) -> Metrics:
        return self._metrics

    @metrics.setter
    def metrics(self, metrics: Metrics) -> None:
        # The database counts its failed writes (tables/db_errors.py) into the bot's metrics.
        self._metrics = metrics
        self.database.errors = metrics.database_errors

    async def open(self) -> None:
        try:
            await self.database.open(MIGRATIONS)
            if self.bot_id:
                await self._take_unowned()
            async with self._writes.turn():
                await ensure_built(self.database)
        except BaseException:
            # A failed start must not leave connections (or aiosqlite's thread) behind.
            await self.close()
            raise

    async def close(self) -> None:
        await self.database.close()

    async def _take_unowned(self) -> None:
        """Tables, their results, handled updates and the season announcer's progress from before
        the fleet were the one bot's: the next to start takes them (and builds its own ratings of
        those matches)."""

        async def write(transaction: Transaction) -> None:
            await transaction.execute("UPDATE tables SET bot_id = ? WHERE bot_id = 0", (self.bot_id,))
            await transaction.execute(
                "UPDATE records_built SET formula = 0 WHERE EXISTS (SELECT 1 FROM results WHERE bot_id = 0)"
            )
            await transaction.execute("UPDATE results SET bot_id = ? WHERE bot_id = 0", (self.bot_id,))
            await transaction.execute("UPDATE handled_updates SET bot_id = ? WHERE bot_id = 0", (self.bot_id,))
            await transaction.execute(
                "UPDATE seasons_checked SET bot_id = ? WHERE bot_id = 0 "
                "AND NOT EXISTS (SELECT 1 FROM seasons_checked AS own WHERE own.bot_id = ?)",
                (self.bot_id, self.bot_id),
            )

        await self.database.transaction(write)

    async def _all(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return await self.database.all(sql, parameters)

    async def _one(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        rows = await self.database.all(sql, parameters)
        return next(iter(rows), None)

    @_serialized
    async def _write(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        await self.database.execute(sql, parameters)

    # ----- chats and users ----------------------------------------------------------------
    async def chat_language(self, chat_id: int) -> str | None:
        if chat_id not in self._chat_languages:
            row = await self._one("SELECT language FROM chats WHERE chat_id = ?", (chat_id,))
            self._remember(self._chat_languages, chat_id, row["language"] if row else None)
        return self._chat_languages[chat_id]

    @staticmethod
    def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
        if len(cache) >= CACHE_SIZE:
            cache.clear()  # a cache, not a record: starting again costs one read per entry
        cache[key] = value

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self._write(
            "INSERT INTO chats (chat_id, language) VALUES (?, ?) "
            "ON CONFLICT(chat_id) DO UPDATE SET language = excluded.language",
            (chat_id, language),
        )
        self._chat_languages.pop(chat_id, None)

    async def get_user(self, user_id: int) -> UserRow | None:
        if user_id in self._users:
            return self._users[user_id]
        row = await self._one("SELECT * FROM users WHERE user_id = ?", (user_id,))
        return self._remember_user_row(row) if row is not None else None

    def _remember_user_row(self, row: Any) -> UserRow:
        user = UserRow(
            row["user_id"], row["first_name"], row["language"], bool(row["language_chosen"]), bool(row["dm_ok"])
        )
        self._remember(self._users, user.user_id, user)
        return user

    async def remember_user(self, user_id: int, first_name: str, first_language: str) -> None:
        """Record a user seen in an update. `first_language` is only used for a user we have
        never seen: after that their language changes only by choice or by joining a table."""
        await self._write(
            "INSERT INTO users (user_id, first_name, language) VALUES (?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET first_name = excluded.first_name",
            (user_id, first_name, first_language),
        )
        self._users.pop(user_id, None)

    async def set_user_language(self, user_id: int, language: str) -> None:
        """The user's own choice (/language): it wins everywhere from now on."""
        await self._write("UPDATE users SET language = ?, language_chosen = 1 WHERE user_id = ?", (language, user_id))
        self._users.pop(user_id, None)

    async def adopt_language(self, user_id: int, language: str) -> None:
        """A user who has not chosen a language takes the one of the group they join from."""
        await self._write(
            "UPDATE users SET language = ? WHERE user_id = ? AND language_chosen = 0", (language, user_id)
        )
        self._users.pop(user_id, None)

    async def languages_of(self, user_ids: Iterable[int]) -> dict[int, str | None]:
        """Known users' languages; every table pass asks, so from the users cache where it can."""
        ids = list(user_ids)
        known = {user_id: self._users[user_id] for user_id in ids if user_id in self._users}
        missing = [user_id for user_id in ids if user_id not in known]
        if missing:
            marks = ",".join("?" * len(missing))
            for row in await self._all(f"SELECT * FROM users WHERE user_id IN ({marks})", missing):
                user = self._remember_user_row(row)
                known[user.user_id] = user
        return {user_id: user.language for user_id, user in known.items()}

    async def set_dm_ok(self, user_id: int, ok: bool) -> None:
        await self._write("UPDATE users SET dm_ok = ? WHERE user_id = ?", (int(ok), user_id))
        self._users.pop(user_id, None)

    async def set_stats_hidden(self, user_id: int, hidden: bool) -> None:
        """/stats off (and on): leaderboards list the player as "a player"."""
        await self._write("UPDATE users SET stats_hidden = ? WHERE user_id = ?", (int(hidden), user_id))

    @_serialized
    async def forget_person(self, user_id: int) -> int:
        """/forget (tables/privacy.py); returns how many past tables keep an anonymous seat."""
        anonymous = pseudonym()
        forgotten = await self.database.transaction(lambda transaction: forget(transaction, user_id, anonymous))
        await self.database.scrub()
        self._users.pop(user_id, None)
        return forgotten

    @property
    def records(self) -> Records:
        """The read side of the records: /stats, /top, /history and replay files."""
        return Records(self.database, FLEET if self.fleet_records else self.bot_id)

    @property
    def seasons(self) -> Seasons:
        """Each group's seasons: its setting, standings and announcements (tables/seasons.py)."""
        return Seasons(self.database, self._write, self.bot_id)

    @property
    def arenas(self) -> ArenaStore:
        """Arena nights and each group's arena settings (tables/arena_nights.py)."""
        return ArenaStore(self.database, self._write, self.bot_id)

    # ----- tables -------------------------------------------------------------------------
    @_serialized
    async def create_table(self, table: TableRow) -> TableRow:
        table.revision, table.bot_id = 1, self.bot_id
        insert = (
            f"INSERT INTO tables ({', '.join(_CREATED)}) VALUES ({', '.join('?' * len(_CREATED))}) RETURNING table_id",
            [TABLE_COLUMNS[name].dump(getattr(table, name)) for name in _CREATED],
        )

        async def write(transaction: Transaction) -> int:
            (row,) = await transaction.fetchall(*insert)
            return row[0]

        table.table_id = await self.database.transaction(write)
        return table

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._one("SELECT * FROM tables WHERE table_id = ? AND bot_id = ?", (table_id, self.bot_id))
        return _table_from_row(row) if row else None

    async def get_table_for(self, table_id: int, request: str) -> tuple[TableRow | None, bool]:
        """The table, and whether `request` (a button press) already made one of its actions:
        one trip to the database for what every press needs first."""
        row = await self._one(
            "SELECT *, EXISTS(SELECT 1 FROM actions WHERE request = ?) AS repeated FROM tables "
            "WHERE table_id = ? AND bot_id = ?",
            (request, table_id, self.bot_id),
        )
        return (_table_from_row(row), bool(row["repeated"])) if row else (None, False)

    async def update_handled(self, update_id: int) -> bool:
        """Whether the update with this id was handled to its end before (`remember_update`)."""
        found = await self._one(
            "SELECT 1 FROM handled_updates WHERE bot_id = ? AND update_id = ?", (self.bot_id, update_id)
        )
        return found is not None

    async def remember_update(self, update_id: int) -> None:
        await self._write(
            "INSERT INTO handled_updates (bot_id, update_id, handled_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (self.bot_id, update_id, time.time()),
        )

    async def forget_old_updates(self) -> None:
        """Handled updates older than Telegram keeps one go (bot/app.py runs this every hour)."""
        await self._write("DELETE FROM handled_updates WHERE handled_at < ?", (time.time() - HANDLED_UPDATE_SECONDS,))

    async def request_applied(self, request: str) -> bool:
        """Whether `request` (a button press) made an action of some table."""
        return await self._one("SELECT 1 FROM actions WHERE request = ?", (request,)) is not None

    async def live_table(self, chat_id: int, thread_id: int) -> TableRow | None:
        row = await self._one(
            "SELECT * FROM tables WHERE chat_id = ? AND thread_id = ? AND status IN ('lobby', 'playing') "
            "AND bot_id = ? AND arena_id IS NULL",
            (chat_id, thread_id, self.bot_id),
        )
        return _table_from_row(row) if row else None

    async def timed_tables(self) -> list[Any]:
        """What a restart re-arms, without the states: ids, versions, deadlines and windows."""
        return await self._all(
            "SELECT table_id, version, deadline, deadline_seconds, warned, paused_until, windows, computer_turn "
            "FROM tables WHERE status = 'playing' AND bot_id = ?",
            (self.bot_id,),
        )

    async def rearm_deadlines(self, restarted_at: float) -> None:
        """Every turn timer running at the restart starts again from the length it was armed with
        (tables saved since the restart already have their own deadline)."""
        await self._write(
            "UPDATE tables SET deadline = ? + deadline_seconds, warned = 0 WHERE status = 'playing' "
            "AND deadline IS NOT NULL AND deadline_seconds IS NOT NULL AND updated_at < ? AND bot_id = ?",
            (restarted_at, restarted_at, self.bot_id),
        )

    async def tables_behind(self) -> list[int]:
        """Tables whose messages may not show their latest committed version yet."""
        rows = await self._all(
            "SELECT table_id FROM tables WHERE revision > published_revision AND bot_id = ?", (self.bot_id,)
        )
        return [row["table_id"] for row in rows]

    async def previous_session(self, chat_id: int, thread_id: int, game: str, before: int) -> TableRow | None:
        """The latest earlier table of this game in this chat that was played (for carrying over)."""
        row = await self._one(
            "SELECT * FROM tables WHERE chat_id = ? AND thread_id = ? AND game = ? AND table_id < ? "
            "AND state IS NOT NULL AND status IN ('finished', 'cancelled') AND bot_id = ? ORDER BY table_id DESC LIMIT 1",
            (chat_id, thread_id, game, before, self.bot_id),
        )
        return _table_from_row(row) if row else None

    async def idle_tables(self, before: float) -> list[TableRow]:
        rows = await self._all(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') AND updated_at < ? AND bot_id = ?",
            (before, self.bot_id),
        )
        return [_table_from_row(row) for row in rows]

    async def live_tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self._all(
            f"SELECT * FROM tables WHERE status IN ('lobby', 'playing') AND bot_id = ? AND {self.database.seated}",
            (self.bot_id, user_id),
        )
        return [_table_from_row(row) for row in rows]

    async def live_tables_in_chat(self, chat_id: int) -> list[TableRow]:
        """The chat's open tables, every forum topic's."""
        rows = await self._all(
            "SELECT * FROM tables WHERE chat_id = ? AND status IN ('lobby', 'playing') AND bot_id = ? ORDER BY table_id",
            (chat_id, self.bot_id),
        )
        return [_table_from_row(row) for row in rows]

    @_a_move
    async def move_chat(self, old: int, new: int) -> list[int]:
        """A group upgraded to a supergroup: everything kept under its id moves to the new id in one
        transaction (its language, tables, what their messages show, polls, results and ratings).
        Returns the open tables moved; a second call finds nothing left to move.

        The open tables' group messages are to be posted again (the old chat cannot be written
        to), so their digests are cleared and their revision steps on: a restart before they are
        posted posts them. A table already open in the new chat keeps its place there (the old
        chat's one stays behind, to be ended as lost); a rating the new chat already has wins."""

        async def write(transaction: Transaction) -> list[int]:
            await transaction.execute(
                "INSERT INTO chats (chat_id, language, title) SELECT ?, language, title FROM chats WHERE chat_id = ? "
                "ON CONFLICT DO NOTHING",
                (new, old),
            )
            await transaction.execute("DELETE FROM chats WHERE chat_id = ?", (old,))
            live = "status IN ('lobby', 'playing')"
            # Arena tables share their chat and topic with each other: only a table of its own keeps a place.
            alone = "AND tables.arena_id IS NULL AND kept.arena_id IS NULL"
            moved = [
                row[0]
                for row in await transaction.fetchall(
                    f"SELECT table_id FROM tables WHERE chat_id = ? AND {live} AND NOT EXISTS (SELECT 1 FROM tables "
                    f"AS kept WHERE kept.chat_id = ? AND kept.bot_id = tables.bot_id {alone} "
                    f"AND kept.thread_id = tables.thread_id AND kept.{live})",
                    (old, new),
                )
            ]
            await transaction.execute(
                f"UPDATE tables SET chat_id = ?, revision = revision + (CASE WHEN {live} THEN 1 ELSE 0 END) "
                f"WHERE chat_id = ? AND NOT ({live} AND EXISTS (SELECT 1 FROM tables AS kept WHERE kept.chat_id = ? "
                f"AND kept.bot_id = tables.bot_id {alone} AND kept.thread_id = tables.thread_id AND kept.{live}))",
                (new, old, new),
            )
            marks = ",".join("?" * len(moved)) or "NULL"
            await transaction.execute(
                "UPDATE screens SET chat_id = ?, message_id = NULL, shown = CASE WHEN slot IN ('table', 'poll') "
                f"AND table_id IN ({marks}) THEN '' ELSE shown END "
                "WHERE chat_id = ? AND table_id IN (SELECT table_id FROM tables WHERE chat_id = ?)",
                (new, *moved, old, new),
            )
            await transaction.execute("UPDATE polls SET chat_id = ?, open = 0 WHERE chat_id = ?", (new, old))
            await transaction.execute("UPDATE results SET chat_id = ? WHERE chat_id = ?", (new, old))
            await transaction.execute(
                "UPDATE ratings SET chat_id = ? WHERE chat_id = ? AND NOT EXISTS (SELECT 1 FROM ratings AS kept "
                "WHERE kept.bot_id = ratings.bot_id AND kept.chat_id = ? AND kept.game = ratings.game "
                "AND kept.user_id = ratings.user_id)",
                (new, old, new),
            )
            await transaction.execute("DELETE FROM ratings WHERE chat_id = ?", (old,))
            await transaction.execute(MOVE_SEASONS, (new, old))
            for statement in MOVE_ARENAS:
                await transaction.execute(statement, (new, old))
            await transaction.execute("DELETE FROM seasons WHERE chat_id = ?", (old,))
            return moved

        moved = await self.database.transaction(write)
        self._chat_languages.pop(old, None)
        self._chat_languages.pop(new, None)
        return moved

    @_a_move
    async def save_table(
        self,
        table: TableRow,
        action: tuple[str, dict[str, Any]] | None = None,
        events: list[dict[str, Any]] | None = None,
        request: str | None = None,
        finished: bool = False,
    ) -> None:
        """Write the table (and the action that produced its version) in one transaction.
        `finished`: this change ended the match, whose records are written in the same transaction."""
        table.updated_at = time.time()
        table.revision += 1
        update = (
            f"UPDATE tables SET {', '.join(f'{name} = ?' for name in _SAVED)} WHERE table_id = ?",
            [*(TABLE_COLUMNS[name].dump(getattr(table, name)) for name in _SAVED), table.table_id],
        )

        async def write(transaction: Transaction) -> None:
            await transaction.execute(*update)
            if action is not None:
                player, move = action
                await transaction.execute(
                    "INSERT INTO actions (table_id, version, player, action, applied_at, events, request) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table.table_id, table.version, player, json.dumps(move), table.updated_at,
                     json.dumps(events or []), request),
                )  # fmt: skip
            if finished:  # a match's end: its records join the same transaction
                await record_match(transaction, table)

        await self.database.transaction(write)

    async def actions_of(self, table_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        rows = await self._all(
            "SELECT version, player, action FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        )
        return [(row["version"], row["player"], json.loads(row["action"])) for row in rows]

    # ----- what the messages show ---------------------------------------------------------
    async def screens_of(self, table_id: int) -> dict[str, Shown]:
        rows = await self._all("SELECT slot, chat_id, message_id, shown FROM screens WHERE table_id = ?", (table_id,))
        return {row["slot"]: Shown(row["chat_id"], row["message_id"], row["shown"]) for row in rows}

    async def record_screen(self, table_id: int, slot: str, shown: Shown | None) -> None:
        """What one message shows now (None: it is gone)."""
        if shown is None:
            await self._write("DELETE FROM screens WHERE table_id = ? AND slot = ?", (table_id, slot))
            return
        await self._write(
            "INSERT INTO screens (table_id, slot, chat_id, message_id, shown) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(table_id, slot) DO UPDATE SET chat_id = excluded.chat_id, "
            "message_id = excluded.message_id, shown = excluded.shown",
            (table_id, slot, shown.chat_id, shown.message_id, shown.digest),
        )

    async def mark_published(self, table_id: int, revision: int) -> None:
        await self.record_screens(table_id, {}, revision)

    @_serialized
    async def record_screens(
        self, table_id: int, shown: dict[str, Shown], published: int, unless: Callable[[], bool] | None = None
    ) -> bool:
        """Several messages' digests and the table's published revision, in one transaction;
        nothing is written (False) if `unless()` says so once it is this write's turn."""
        if unless is not None and unless():
            return False
        rows = [(item.chat_id, item.message_id, item.digest, table_id, slot) for slot, item in shown.items()]

        async def write(transaction: Transaction) -> None:
            await transaction.executemany(
                "UPDATE screens SET chat_id = ?, message_id = ?, shown = ? WHERE table_id = ? AND slot = ?", rows
            )
            await transaction.execute(
                "UPDATE tables SET published_revision = ? WHERE table_id = ? AND published_revision < ?",
                (published, table_id, published),
            )

        await self.database.transaction(write)
        return True

    # ----- polls --------------------------------------------------------------------------
    async def add_poll(self, poll_id: str, table_id: int, key: str, chat_id: int, message_id: int) -> None:
        await self._write(
            "INSERT INTO polls (poll_id, table_id, key, chat_id, message_id) VALUES (?, ?, ?, ?, ?)",
            (poll_id, table_id, key, chat_id, message_id),
        )
        for landed in self._ballots_waiting.get(poll_id, ()):
            landed.set()

    async def poll(self, poll_id: str) -> Any:
        return await self._one("SELECT * FROM polls WHERE poll_id = ?", (poll_id,))

    async def stored_poll(self, poll_id: str, wait: float = EARLY_BALLOT_SECONDS) -> Any:
        """The poll's row for a ballot, waiting up to `wait` seconds for it to be stored: Telegram
        shows a poll, and can deliver its first ballots, before the bot has its sendPoll's answer
        with the poll's id (docs/DECISIONS.md, "A ballot before its poll's row")."""
        landed = asyncio.Event()
        waiting = self._ballots_waiting.setdefault(poll_id, [])
        waiting.append(landed)  # before the read: a row stored after it sets `landed`
        try:
            row = await self.poll(poll_id)
            if row is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(landed.wait(), wait)
                row = await self.poll(poll_id)
            return row
        finally:
            waiting.remove(landed)
            if not waiting:
                self._ballots_waiting.pop(poll_id, None)

    async def close_polls(self, table_id: int) -> None:
        await self._write("UPDATE polls SET open = 0 WHERE table_id = ? AND open = 1", (table_id,))
