"""A group's seasons: calendar periods whose standings are derived from the stored results.

Nothing here is a second source of truth: a season's standings are computed from the `results`
rows (tables/records.py) of the matches that finished inside it, whatever made them (a table, or
an arena's tables later). What is kept is only what the results cannot say: each group's season
length (a setting), the end of the last season announced in it, and how far the announcer has
looked (`seasons_checked`), so that a season that ended while the bot was down is announced
once at its next start.

Seasons turn at midnight East Africa Time (UTC+3, no daylight saving), the time every date the
bot shows is in: a month's season is its whole calendar month there, a week's runs Monday to
Sunday. Scoring (docs/DECISIONS.md, "Seasons"): in each match a side (a player, or a team) that
finishes first scores 2 points, second 1 point when at least three sides played (a two-sided
match's loser scores nothing); standings go by points, then wins, then fewer matches.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any, ClassVar, Protocol, TypeVar

from tables.database import Database
from tables.models import ANONYMOUS_FROM
from tables.records import Records

# Where the bot's players are; every date it shows is in this time (handlers/presentation/render/records.py).
PLAYERS_TIME = timezone(timedelta(hours=3))
MONTH, WEEK, OFF = "month", "week", "off"
LENGTHS = (MONTH, WEEK, OFF)
DEFAULT_LENGTH = MONTH
WIN_POINTS = 2
SECOND_POINTS = 1
# A group upgraded to a supergroup keeps its season setting (unless the new one has its own):
# run by the store's move of the chat, in its transaction, with (new, old).
MOVE_CHAT = (
    "INSERT INTO seasons (chat_id, length, announced_end) SELECT ?, length, announced_end FROM seasons "
    "WHERE chat_id = ? ON CONFLICT (chat_id) DO NOTHING"
)


# ----- boundaries (pure) ----------------------------------------------------------------------
@dataclass(frozen=True)
class Season:
    """[start, end) in epoch seconds."""

    length: str
    start: float
    end: float

    def holds(self, when: float) -> bool:
        return self.start <= when < self.end


def season_at(when: float, length: str) -> Season:
    """The season of a group with this length (MONTH or WEEK) that `when` falls in."""
    local = datetime.fromtimestamp(when, PLAYERS_TIME)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if length == WEEK:
        start = midnight - timedelta(days=midnight.weekday())
        end = start + timedelta(days=7)
    elif length == MONTH:
        start = midnight.replace(day=1)
        end = (start + timedelta(days=32)).replace(day=1)
    else:
        raise ValueError(f"no seasons of length {length!r}")
    return Season(length, start.timestamp(), end.timestamp())


def latest_turn(when: float) -> float:
    """The latest moment at or before `when` at which some group's season turned."""
    return max(season_at(when, WEEK).start, season_at(when, MONTH).start)


def earliest_start(when: float) -> float:
    """The start of the earliest season of any length still running at `when`."""
    return min(season_at(when, WEEK).start, season_at(when, MONTH).start)


# ----- standings (pure) -----------------------------------------------------------------------
@dataclass(frozen=True)
class Seated:
    """One results row: a seat of a counted match."""

    table_id: int
    user_id: int
    place: int
    team: int | None = None


@dataclass(frozen=True)
class Line:
    """A player's line in a season's standings: `place` is shared by equal lines."""

    user_id: int
    points: int
    wins: int
    matches: int
    place: int = 0


def match_points(seats: Sequence[Seated]) -> dict[int, tuple[int, bool]]:
    """Each player's (points, won) from one match: places are counted among sides (partners
    are one side), so a losing team of two is second, not third."""
    sides: dict[tuple[str, int], int] = {}
    for seat in seats:
        side = ("team", seat.team) if seat.team is not None else ("seat", seat.user_id)
        sides[side] = min(sides.get(side, seat.place), seat.place)
    ranks = {side: 1 + sum(other < place for other in sides.values()) for side, place in sides.items()}
    scored = {}
    for seat in seats:
        rank = ranks[("team", seat.team) if seat.team is not None else ("seat", seat.user_id)]
        points = WIN_POINTS if rank == 1 else SECOND_POINTS if rank == 2 and len(sides) >= 3 else 0
        scored[seat.user_id] = (points, rank == 1)
    return scored


def standings(rows: Iterable[Seated], counts: Callable[[int], bool] = lambda user: True) -> list[Line]:
    """The standings of a season's matches (every seat of each: a computer player still takes
    a place), listing only the players `counts` accepts: points, then wins, then fewer
    matches first; equal lines share a place."""
    matches: dict[int, list[Seated]] = {}
    for row in rows:
        matches.setdefault(row.table_id, []).append(row)
    totals: dict[int, list[int]] = {}
    for seats in matches.values():
        for user, (points, won) in match_points(seats).items():
            total = totals.setdefault(user, [0, 0, 0])
            total[0] += points
            total[1] += int(won)
            total[2] += 1
    return ranked([Line(user, *total) for user, total in totals.items() if counts(user)])


class Standing(Protocol):
    """A line of standings (a season's, an arena's): a frozen dataclass with these fields."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def user_id(self) -> int: ...
    @property
    def points(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def matches(self) -> int: ...


StandingLine = TypeVar("StandingLine", bound=Standing)


def ranked(lines: Iterable[StandingLine]) -> list[StandingLine]:
    """Points, then wins, then fewer matches first; equal lines share a place (`place`)."""
    ordered = sorted(lines, key=lambda line: (-line.points, -line.wins, line.matches, line.user_id))
    first: dict[tuple[int, int, int], int] = {}
    for number, line in enumerate(ordered):
        first.setdefault((line.points, line.wins, line.matches), number + 1)
    return [replace(line, place=first[(line.points, line.wins, line.matches)]) for line in ordered]


def is_person(user_id: int) -> bool:
    """People only: computer players (negative ids) and forgotten persons' pseudonyms are no one's."""
    return 1 <= user_id < ANONYMOUS_FROM


# ----- stored -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Due:
    """A group whose season ended and was not announced yet."""

    chat_id: int
    ended: Season


class Seasons:
    """The group's season setting, its standings, and the announcer's bookkeeping. Reads go
    straight to the database; writes through the store's turns (`write`: one statement,
    committed).

    In a fleet (docs/DECISIONS.md, "PostgreSQL and a fleet") a group's standings span the fleet
    like its records (a group is served by one bot, so they are the same either way); the
    announcer of bot `bot_id` looks only at matches of its own tables, and keeps its own
    `seasons_checked` row, so that each group's champions are posted once, by the bot serving it."""

    def __init__(self, database: Database, write: Callable[[str, Sequence[Any]], Awaitable[None]], bot_id: int = 0):
        self.database = database
        self.write = write
        self.bot_id = bot_id

    async def _all(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return await self.database.all(sql, parameters)

    async def _one(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, parameters)
        return rows[0] if rows else None

    # ----- the setting ---------------------------------------------------------------------
    async def length_of(self, chat_id: int) -> str:
        row = await self._one("SELECT length FROM seasons WHERE chat_id = ?", (chat_id,))
        return row[0] if row else DEFAULT_LENGTH

    async def current(self, chat_id: int, now: float) -> Season | None:
        """The group's running season (None: the group turned seasons off)."""
        length = await self.length_of(chat_id)
        return None if length == OFF else season_at(now, length)

    async def set_length(self, chat_id: int, length: str, now: float) -> None:
        """An admin's choice. Seasons that ended under another length are never announced: the
        group's first announcement is the end of the season running now. Choosing the length
        the group already has changes nothing (a season that just ended is still owed)."""
        if length == await self.length_of(chat_id):
            return
        announced = season_at(now, length).start if length != OFF else now
        await self.write(
            "INSERT INTO seasons (chat_id, length, announced_end) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET length = excluded.length, announced_end = excluded.announced_end",
            (chat_id, length, announced),
        )

    # ----- standings -----------------------------------------------------------------------
    async def played(self, chat_id: int, season: Season) -> list[str]:
        """The games with a match finished in this season here, the one played last first."""
        rows = await self._all(
            "SELECT game, MAX(finished_at) AS last FROM results WHERE chat_id = ? AND seat = 0 "
            "AND finished_at >= ? AND finished_at < ? GROUP BY game ORDER BY last DESC, game",
            (chat_id, season.start, season.end),
        )
        return [row[0] for row in rows]

    async def standings(self, chat_id: int, game: str, season: Season) -> list[Line]:
        rows = await self._all(
            "SELECT table_id, user_id, place, team FROM results WHERE chat_id = ? AND game = ? "
            "AND finished_at >= ? AND finished_at < ?",
            (chat_id, game, season.start, season.end),
        )
        return standings((Seated(*row) for row in rows), is_person)

    async def names(self, user_ids: Iterable[int], game: str) -> dict[int, str | None]:
        """People's names as leaderboards show them: None for one who asked to stay off them; one
        the bot never heard from is named as they last sat at `game`."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._all(f"SELECT user_id, first_name, stats_hidden FROM users WHERE user_id IN ({marks})", ids)
        names: dict[int, str | None] = {user: None if hidden else name for user, name, hidden in rows}
        unknown = [user for user in ids if user not in names]
        names.update(await Records(self.database).seat_names(unknown, game) if unknown else {})
        return names

    # ----- the announcer -------------------------------------------------------------------
    async def begin(self, now: float) -> None:
        """At start-up: a database that never had seasons starts looking from now (a season
        that ended before the bot had seasons is not announced)."""
        await self.write(
            "INSERT INTO seasons_checked (bot_id, up_to) VALUES (?, ?) "
            "ON CONFLICT (bot_id) DO UPDATE SET up_to = excluded.up_to WHERE seasons_checked.up_to = 0",
            (self.bot_id, now),
        )

    async def due(self, now: float) -> tuple[list[Due], float]:
        """Groups whose latest ended season had matches and was not announced, and the moment
        the announcer has looked up to once they are. Cheap when no season turned since."""
        row = await self._one("SELECT up_to FROM seasons_checked WHERE bot_id = ?", (self.bot_id,))
        checked = row[0] if row else now
        turn = latest_turn(now)
        if turn <= checked:
            return [], checked
        since = earliest_start(checked)
        chats = await self._all(
            # Groups only (negative ids): a private chat's practice matches have no season.
            "SELECT DISTINCT chat_id FROM results WHERE seat = 0 AND finished_at >= ? AND finished_at < ? "
            "AND chat_id < 0 AND table_id IN (SELECT table_id FROM tables WHERE bot_id = ?)",
            (since, turn, self.bot_id),
        )
        due = []
        for (chat_id,) in chats:
            setting = await self._one("SELECT length, announced_end FROM seasons WHERE chat_id = ?", (chat_id,))
            length, announced = setting if setting else (DEFAULT_LENGTH, 0.0)
            if length == OFF:
                continue
            last = await self._one(
                "SELECT MAX(finished_at) FROM results WHERE chat_id = ? AND seat = 0 AND finished_at >= ? "
                "AND finished_at < ?",
                (chat_id, max(since, announced), season_at(now, length).start),
            )
            if last is not None and last[0] is not None:
                due.append(Due(chat_id, season_at(last[0], length)))
        return due, turn

    async def announced(self, chat_id: int, season: Season) -> None:
        await self.write(
            "INSERT INTO seasons (chat_id, length, announced_end) VALUES (?, ?, ?) "
            "ON CONFLICT (chat_id) DO UPDATE SET announced_end = excluded.announced_end",
            (chat_id, season.length, season.end),
        )

    async def checked(self, until: float) -> None:
        await self.write(
            "UPDATE seasons_checked SET up_to = ? WHERE bot_id = ? AND up_to < ?", (until, self.bot_id, until)
        )
