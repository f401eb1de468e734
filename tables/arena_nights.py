"""Arena nights: a group's timed competition (not `karata arena`, engine/ai/arena.py, where
computer players play each other offline).

People join an arena; while it runs, those waiting are seated at tables of the game's size,
ranked together by their arena score, and whenever a table finishes its players wait again and
are re-seated as soon as enough are waiting. When the time is up no new table starts; the
tables under way play to their end, and then the arena is over.

Nothing here is a second source of truth: an arena's standings are computed from the `results`
rows (tables/records.py) of the tables it seated, in the order they finished; the arena row
keeps only what the results cannot say (its entrants and who paused, its clock, its standings
message). A restart finds everything where it stood: the end is a moment on the wall clock
(the group was told when it ends), re-armed on the arena's own timers.

Scoring (docs/DECISIONS.md, "Arena nights"): a side that finishes first scores 2, second 1
when at least three sides played; a win after two wins in a row scores double.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from telegram.ext import JobQueue

from engine.core.options import OptionsError, options_dict, parse_options
from engine.registry import UnknownGame, get_game
from tables.database import Database
from tables.models import LIVE, Loaded, Seat
from tables.seasons import Seated, is_person, match_points, ranked
from tables.timers import Due, Timers

log = logging.getLogger(__name__)

OPEN, RUNNING, CLOSING, OVER, CANCELLED = "open", "running", "closing", "over", "cancelled"
ARENA_LIVE = (OPEN, RUNNING, CLOSING)
STREAK = 2  # wins in a row after which a win scores double
SHORTEST_MINUTES, LONGEST_MINUTES = 5, 240
# A group upgraded to a supergroup takes its arenas and settings along (the standings message is
# posted again there): run by the store's move of the chat, in its transaction, each with (new, old).
MOVE_CHAT = (
    "UPDATE arena_nights SET chat_id = ?, message_id = NULL, shown = '' WHERE chat_id = ?",
    "INSERT INTO arena_settings (chat_id, anyone, computers) SELECT ?, anyone, computers FROM arena_settings "
    "WHERE chat_id = ? ON CONFLICT (chat_id) DO NOTHING",
)


# ----- scoring (pure) -------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """An entrant's line in the standings; `place` is shared by equal lines."""

    user_id: int
    points: int = 0
    wins: int = 0
    matches: int = 0
    streak: int = 0
    place: int = 0


def scored(matches: Iterable[Sequence[Seated]], entrants: Iterable[int]) -> list[Line]:
    """The standings after these matches, in the order they finished: every entrant has a line
    (computer players take places but have none); points, then wins, then fewer matches."""
    totals = {user: Line(user) for user in entrants}
    for seats in matches:
        for user, (points, won) in match_points(seats).items():
            if not is_person(user):
                continue
            line = totals.get(user, Line(user))
            bonus = 2 if won and line.streak >= STREAK else 1
            totals[user] = replace(
                line,
                points=line.points + points * bonus,
                wins=line.wins + int(won),
                matches=line.matches + 1,
                streak=line.streak + 1 if won else 0,
            )
    return ranked(totals.values())


# ----- seating (pure) -------------------------------------------------------------------------
@dataclass(frozen=True)
class Size:
    """The game's table sizes for this arena: the usual one, and the bounds its options allow."""

    usual: int
    least: int
    most: int


def seatings(waiting: Sequence[int], size: Size, computers: bool) -> list[tuple[list[int], int]]:
    """Tables for the players waiting (best first): (people, computer players) each. Tables of
    the usual size from the top; the rest sit at a smaller table when the game allows one,
    else computer players fill their seats (if the group chose so), else they join the tables
    above, one each from the bottom, while those have room; whoever is left waits for the next
    table to finish (or a late joiner)."""
    people = list(waiting)
    tables = [people[start : start + size.usual] for start in range(0, len(people), size.usual)]
    if not tables or len(tables[-1]) == size.usual:
        return [(table, 0) for table in tables]
    rest = tables.pop()
    if len(rest) >= size.least:
        return [*((table, 0) for table in tables), (rest, 0)]
    if computers:
        return [*((table, 0) for table in tables), (rest, size.usual - len(rest))]
    for table in reversed(tables):
        if rest and len(table) < size.most:
            table.append(rest.pop(0))
    return [(table, 0) for table in tables]


# ----- stored ---------------------------------------------------------------------------------
@dataclass
class Entrant:
    user_id: int
    name: str
    paused: bool = False
    # When they last began to wait: the longest waiting go first among equal scores.
    since: float = 0.0


@dataclass
class ArenaRow:
    arena_id: int
    chat_id: int
    thread_id: int
    game: str
    options: dict[str, Any]
    creator_id: int
    seconds: float
    computers: bool
    status: str
    join_token: str
    entrants: list[Entrant]
    ends_at: float | None
    message_id: int | None
    shown: str
    told: bool
    created_at: float

    def entrant(self, user_id: int) -> Entrant | None:
        return next((entrant for entrant in self.entrants if entrant.user_id == user_id), None)

    @property
    def names(self) -> dict[int, str]:
        return {entrant.user_id: entrant.name for entrant in self.entrants}


def _arena(row: Any) -> ArenaRow:
    return ArenaRow(
        arena_id=row["arena_id"],
        chat_id=row["chat_id"],
        thread_id=row["thread_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        creator_id=row["creator_id"],
        seconds=row["seconds"],
        computers=bool(row["computers"]),
        status=row["status"],
        join_token=row["join_token"],
        entrants=[Entrant(**item) for item in json.loads(row["entrants"])],
        ends_at=row["ends_at"],
        message_id=row["message_id"],
        shown=row["shown"],
        told=bool(row["told"]),
        created_at=row["created_at"],
    )


@dataclass(frozen=True)
class Finished:
    """A finished arena match: its table, when, and its seats."""

    table_id: int
    finished_at: float
    seats: list[Seated]


@dataclass(frozen=True)
class Playing:
    """A table of the arena under way, and who sits at it (computer players too)."""

    table_id: int
    names: list[str]
    user_ids: list[int]
    # The table's join token: its "👀 Watch" link carries it (docs/DECISIONS.md, "Watching").
    join_token: str = ""


@dataclass
class Standings:
    """Everything an arena's standings message is drawn from."""

    arena: ArenaRow
    lines: list[Line]
    playing: list[Playing]
    minutes: int = 0
    finished: list[Finished] = field(default_factory=list)
    # Names of everyone who sat at an arena table (computer players as well).
    seat_names: dict[int, str] = field(default_factory=dict)


class ArenaStore:
    """The arena rows, a group's arena settings and what an arena's tables came to. Reads go
    straight to the database; writes through the store's turns (`write`: one statement)."""

    def __init__(self, database: Database, write: Callable[[str, Sequence[Any]], Awaitable[None]], bot_id: int = 0):
        self.database = database
        self.write = write
        self.bot_id = bot_id

    async def _one(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        rows = await self.database.all(sql, parameters)
        return rows[0] if rows else None

    # ----- settings ------------------------------------------------------------------------
    async def settings_of(self, chat_id: int) -> tuple[bool, bool]:
        """(anyone may open an arena, computer players fill seats) in this group."""
        row = await self._one("SELECT anyone, computers FROM arena_settings WHERE chat_id = ?", (chat_id,))
        return (bool(row[0]), bool(row[1])) if row else (False, False)

    async def set_setting(self, chat_id: int, name: str, on: bool) -> None:
        assert name in ("anyone", "computers")
        await self.write(
            f"INSERT INTO arena_settings (chat_id, {name}) VALUES (?, ?) "
            f"ON CONFLICT (chat_id) DO UPDATE SET {name} = excluded.{name}",
            (chat_id, int(on)),
        )

    # ----- arenas --------------------------------------------------------------------------
    async def create(self, arena: ArenaRow) -> ArenaRow | None:
        """The new arena with its id; None when the group has a live one already."""
        if await self.live_in(arena.chat_id) is not None:
            return None
        await self.write(
            "INSERT INTO arena_nights (bot_id, chat_id, thread_id, game, options, creator_id, seconds, computers, "
            "status, join_token, entrants, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (self.bot_id, arena.chat_id, arena.thread_id, arena.game, json.dumps(arena.options), arena.creator_id,
             arena.seconds, int(arena.computers), arena.status, arena.join_token, "[]", arena.created_at),
        )  # fmt: skip
        made = await self.live_in(arena.chat_id)
        return made if made is not None and made.join_token == arena.join_token else None

    async def get(self, arena_id: int) -> ArenaRow | None:
        row = await self._one("SELECT * FROM arena_nights WHERE arena_id = ? AND bot_id = ?", (arena_id, self.bot_id))
        return _arena(row) if row else None

    async def live_in(self, chat_id: int) -> ArenaRow | None:
        row = await self._one(
            "SELECT * FROM arena_nights WHERE chat_id = ? AND bot_id = ? AND status IN ('open', 'running', 'closing')",
            (chat_id, self.bot_id),
        )
        return _arena(row) if row else None

    async def unfinished(self) -> list[ArenaRow]:
        """What a restart picks up: live arenas, and ended ones whose end was not told yet."""
        rows = await self.database.all(
            "SELECT * FROM arena_nights WHERE bot_id = ? AND (status IN ('open', 'running', 'closing') OR told = 0)",
            (self.bot_id,),
        )
        return [_arena(row) for row in rows]

    async def save(self, arena: ArenaRow) -> None:
        """What the arena decides: its state, entrants and clock (never the message it shows)."""
        entrants = json.dumps([entrant.__dict__ for entrant in arena.entrants])
        await self.write(
            "UPDATE arena_nights SET status = ?, entrants = ?, ends_at = ? WHERE arena_id = ?",
            (arena.status, entrants, arena.ends_at, arena.arena_id),
        )

    async def record_message(self, arena_id: int, message_id: int | None, shown: str) -> None:
        await self.write(
            "UPDATE arena_nights SET message_id = ?, shown = ? WHERE arena_id = ?", (message_id, shown, arena_id)
        )

    async def mark_told(self, arena_id: int) -> None:
        await self.write("UPDATE arena_nights SET told = 1 WHERE arena_id = ?", (arena_id,))

    # ----- its tables ----------------------------------------------------------------------
    async def playing(self, arena_id: int) -> list[Playing]:
        rows = await self.database.all(
            "SELECT table_id, seats, join_token FROM tables WHERE arena_id = ? AND status IN ('lobby', 'playing') "
            "ORDER BY table_id",
            (arena_id,),
        )
        found = []
        for table_id, seats, token in rows:
            parsed = json.loads(seats)
            names, users = [seat["name"] for seat in parsed], [seat["user_id"] for seat in parsed]
            found.append(Playing(table_id, names, users, token))
        return found

    async def lobbies(self, arena_id: int) -> list[tuple[int, int]]:
        """The arena's tables left in their lobby (table id, opener)."""
        rows = await self.database.all(
            "SELECT table_id, creator_id FROM tables WHERE arena_id = ? AND status = 'lobby'", (arena_id,)
        )
        return [(row[0], row[1]) for row in rows]

    async def finished(self, arena_id: int) -> tuple[list[Finished], dict[int, str]]:
        """The arena's counted matches in the order they finished, and the names at their seats."""
        rows = await self.database.all(
            "SELECT results.table_id, results.finished_at, results.user_id, results.place, results.team, "
            "results.seat, tables.seats FROM results JOIN tables ON tables.table_id = results.table_id "
            "WHERE tables.arena_id = ? ORDER BY results.finished_at, results.table_id, results.seat",
            (arena_id,),
        )
        matches: dict[int, Finished] = {}
        names: dict[int, str] = {}
        for table_id, finished_at, user_id, place, team, seat, seats in rows:
            match = matches.setdefault(table_id, Finished(table_id, finished_at, []))
            match.seats.append(Seated(table_id, user_id, place, team))
            listed = json.loads(seats)
            if seat < len(listed):
                names[user_id] = listed[seat]["name"]
        return list(matches.values()), names


# ----- the service ----------------------------------------------------------------------------
class ArenaWatcher(Protocol):
    """Told when an arena changed (handlers/chat/arena_nights.py redraws its standings): it must only
    take note and wake its own task, never wait."""

    def arena_changed(self, arena_id: int) -> None: ...


class Tables(Protocol):
    """What an arena needs of the table service: its lobby job (tables/lobbies.py `Lobby`)."""

    async def open_lobby(self, chat_id: int, thread_id: int, game_name: str, creator: Seat,
                         raw_options: dict[str, Any], turn_seconds: int | None, computers: int = 0,
                         level: str = "strong", stand_in: bool = False, start: bool = False,
                         arena_id: int | None = None) -> Any: ...  # fmt: skip

    async def join(self, table_id: int, seat: Seat, token: str) -> Any: ...

    async def start(self, table_id: int, user_id: int) -> Any: ...

    async def cancel(self, table_id: int, user_id: int, is_admin: bool) -> Any: ...


@dataclass(frozen=True)
class Answer:
    """What an arena request came to: done, or refused with a code the handlers word."""

    ok: bool
    code: str = ""
    arena: ArenaRow | None = None


class ArenaNights:
    """Opens, fills, runs and closes arenas over the table service. Listens to the change feed
    (a table of an arena that ends sends its players back to the queue) and keeps its own
    timers (each running arena's end)."""

    def __init__(
        self,
        store: Any,
        tables: Tables,
        job_queue: JobQueue | None = None,
        clock: Callable[[], float] = time.time,
        minute: float = 60.0,
    ):
        self.store = store
        self.tables = tables
        self.clock = clock
        # Seconds in an arena's minute (tests run them faster).
        self.minute = minute
        self.timers = Timers(job_queue, self._on_due, clock) if job_queue is not None else None
        self.watchers: list[ArenaWatcher] = []
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def arenas(self) -> ArenaStore:
        return self.store.arenas

    def lock(self, arena_id: int) -> asyncio.Lock:
        lock = self._locks.get(arena_id)
        if lock is None:
            lock = self._locks[arena_id] = asyncio.Lock()
        return lock

    def redraw(self, arena_id: int) -> None:
        """Tell the watchers the arena changed (after its chat moved, its message is to be posted again)."""
        self._changed(arena_id)

    def _changed(self, arena_id: int) -> None:
        for watcher in self.watchers:
            watcher.arena_changed(arena_id)

    # ----- the change feed's listener ---------------------------------------------------------
    def changed(self, table_id: int, loaded: Loaded | None) -> None:
        """A table changed: one of an arena's that ended sends its players back to the queue (a
        move changes nothing the standings show; a table seated is the arena's own doing)."""
        if loaded is None or loaded.table.arena_id is None or loaded.table.status in LIVE:
            return
        task = asyncio.get_running_loop().create_task(self.table_ended(loaded.table.arena_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- opening and joining ------------------------------------------------------------------
    async def open(
        self, chat_id: int, thread_id: int, game_name: str, opener: Seat, raw_options: dict[str, Any], minutes: int
    ) -> Answer:
        try:
            game = get_game(game_name)
        except UnknownGame:
            return Answer(False, "unknown_game")
        if not SHORTEST_MINUTES <= minutes <= LONGEST_MINUTES:
            return Answer(False, "minutes")
        if any(raw_options.get(name) for name in game.consent_options):
            return Answer(False, "consent_option")  # an arena cannot wait for every table's consent
        try:
            options = options_dict(parse_options(game.Options, raw_options))
        except OptionsError:
            return Answer(False, "bad_option")
        _anyone, computers = await self.arenas.settings_of(chat_id)
        now = self.clock()
        arena = ArenaRow(0, chat_id, thread_id, game_name, options, opener.user_id, minutes * self.minute, computers,
                         OPEN, secrets.token_hex(6), [], None, None, "", False, now)  # fmt: skip
        made = await self.arenas.create(arena)
        if made is None:
            return Answer(False, "arena_exists")
        self._changed(made.arena_id)
        return Answer(True, arena=made)

    async def join(self, arena_id: int, token: str, seat: Seat) -> Answer:
        """Join (or, having paused, come back); a late joiner waits for the next seating."""
        async with self.lock(arena_id):
            arena = await self.arenas.get(arena_id)
            if arena is None or not secrets.compare_digest(arena.join_token, token):
                return Answer(False, "no_arena")
            if arena.status not in (OPEN, RUNNING):
                return Answer(False, "arena_over", arena)
            found = arena.entrant(seat.user_id)
            if found is not None and not found.paused:
                return Answer(False, "already_in", arena)
            if found is None:
                arena.entrants.append(Entrant(seat.user_id, seat.name, since=self.clock()))
            else:
                found.paused, found.since = False, self.clock()
            await self.arenas.save(arena)
            await self._seat_waiting(arena)
        self._changed(arena_id)
        return Answer(True, arena=arena)

    async def pause(self, arena_id: int, user_id: int, paused: bool) -> Answer:
        """Leave the queue (a match under way is played to its end) or come back to it."""
        async with self.lock(arena_id):
            arena = await self.arenas.get(arena_id)
            if arena is None or arena.status not in (OPEN, RUNNING):
                return Answer(False, "arena_over", arena)
            found = arena.entrant(user_id)
            if found is None:
                return Answer(False, "not_in", arena)
            if found.paused == paused:
                return Answer(True, arena=arena)
            found.paused, found.since = paused, self.clock()
            await self.arenas.save(arena)
            if not paused:
                await self._seat_waiting(arena)
        self._changed(arena_id)
        return Answer(True, arena=arena)

    async def start(self, arena_id: int) -> Answer:
        """The clock starts and the first tables are seated (the handler checked who may)."""
        async with self.lock(arena_id):
            arena = await self.arenas.get(arena_id)
            if arena is None or arena.status != OPEN:
                return Answer(False, "not_open", arena)
            arena.status, arena.ends_at = RUNNING, self.clock() + arena.seconds
            await self.arenas.save(arena)
            self._arm(arena)
            await self._seat_waiting(arena)
        self._changed(arena_id)
        return Answer(True, arena=arena)

    async def stop(self, arena_id: int) -> Answer:
        """End it now: an open arena is called off; a running one starts no new table."""
        async with self.lock(arena_id):
            arena = await self.arenas.get(arena_id)
            if arena is None or arena.status not in (OPEN, RUNNING):
                return Answer(False, "arena_over", arena)
            if arena.status == OPEN:
                arena.status = CANCELLED
                await self.arenas.save(arena)
            else:
                await self._time_up(arena)
        self._changed(arena_id)
        return Answer(True, arena=arena)

    # ----- the clock and the queue ---------------------------------------------------------
    def _arm(self, arena: ArenaRow) -> None:
        if self.timers is not None and arena.status == RUNNING and arena.ends_at is not None:
            self.timers.set(arena.arena_id, "end", arena.ends_at, 0)

    async def _on_due(self, due: Due) -> None:
        async with self.lock(due.table_id):
            arena = await self.arenas.get(due.table_id)
            if arena is None or arena.status != RUNNING:
                return
            await self._time_up(arena)
        self._changed(arena.arena_id)

    async def _time_up(self, arena: ArenaRow) -> None:
        """No new table starts; the arena is over once its tables are (the caller holds its lock)."""
        arena.status = CLOSING
        if not await self.arenas.playing(arena.arena_id):
            arena.status = OVER
        await self.arenas.save(arena)
        if self.timers is not None:
            self.timers.cancel(arena.arena_id)

    async def table_ended(self, arena_id: int) -> None:
        async with self.lock(arena_id):
            arena = await self.arenas.get(arena_id)
            if arena is None:
                return
            if arena.status == RUNNING and arena.ends_at is not None and self.clock() >= arena.ends_at:
                await self._time_up(arena)  # the timer may not have fired yet
            elif arena.status == RUNNING:
                await self._seat_waiting(arena)
            elif arena.status == CLOSING and not await self.arenas.playing(arena_id):
                arena.status = OVER
                await self.arenas.save(arena)
        self._changed(arena_id)

    async def _seat_waiting(self, arena: ArenaRow) -> None:
        """Seat whoever waits, ranked together by score (the caller holds the arena's lock)."""
        if arena.status != RUNNING or (arena.ends_at is not None and self.clock() >= arena.ends_at):
            return  # time is up, though its timer may not have fired yet
        playing = await self.arenas.playing(arena.arena_id)
        seated = {user for table in playing for user in table.user_ids}
        waiting = [entrant for entrant in arena.entrants if not entrant.paused and entrant.user_id not in seated]
        if not waiting:
            return
        matches, _names = await self.arenas.finished(arena.arena_id)
        lines = {line.user_id: line for line in scored((match.seats for match in matches), arena.names)}
        waiting.sort(key=lambda entrant: (-lines[entrant.user_id].points, entrant.since, entrant.user_id))
        game = get_game(arena.game)
        low, high = game.player_range(parse_options(game.Options, arena.options))
        size = Size(min(max(game.usual_players, low), high), low, high)
        names = arena.names
        for people, computers in seatings([entrant.user_id for entrant in waiting], size, arena.computers):
            await self._open_table(arena, [Seat(user, names[user]) for user in people], computers)

    async def _open_table(self, arena: ArenaRow, seats: list[Seat], computers: int) -> None:
        first, *others = seats
        opened = await self.tables.open_lobby(
            arena.chat_id, arena.thread_id, arena.game, first, arena.options, None,
            computers=computers, level="easy", stand_in=True, arena_id=arena.arena_id,
        )  # fmt: skip
        if not opened.ok:
            log.warning("arena %s could not open a table: %s", arena.arena_id, opened.code)
            return
        table = opened.table
        for seat in others:
            await self.tables.join(table.table_id, seat, table.join_token)
        started = await self.tables.start(table.table_id, first.user_id)
        if not started.ok:
            log.warning("arena %s could not start table %s: %s", arena.arena_id, table.table_id, started.code)

    async def _deal_half_seated(self, arena_id: int) -> None:
        """A table the bot was seating when it stopped: dealt to whoever sat down, or (too few
        for the game) closed, which sends them back to the queue."""
        for table_id, creator_id in await self.arenas.lobbies(arena_id):
            if not (await self.tables.start(table_id, creator_id)).ok:
                await self.tables.cancel(table_id, creator_id, True)

    # ----- reading ----------------------------------------------------------------------------
    async def standings(self, arena_id: int) -> Standings | None:
        arena = await self.arenas.get(arena_id)
        if arena is None:
            return None
        matches, names = await self.arenas.finished(arena_id)
        playing = await self.arenas.playing(arena_id)
        lines = scored((match.seats for match in matches), arena.names)
        minutes = round(arena.seconds / self.minute)
        return Standings(arena, lines, playing, minutes, matches, {**names, **arena.names})

    # ----- a restart ----------------------------------------------------------------------------
    async def resume(self) -> list[int]:
        """Re-arm each running arena's end, catch up with what ended while the bot was down
        (a table that finished, the time that ran out), and redraw every unfinished arena."""
        arenas = await self.arenas.unfinished()
        for arena in arenas:
            await self._deal_half_seated(arena.arena_id)
            if arena.status in (RUNNING, CLOSING):
                self._arm(arena)
                await self.table_ended(arena.arena_id)
            else:
                self._changed(arena.arena_id)
        return [arena.arena_id for arena in arenas]
