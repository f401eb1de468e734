"""Records derived from the stored matches: each match's standings, ratings, and the queries
behind /stats, /top, /history and a match's replay file.

A finished table (its engine state, seats, chat and action log) is the record of a match;
nothing here is a second source of truth. `results` (one row per counted match and seat:
place, score, team) and `ratings` (per game and group, and per game across all groups) are
derived from the tables: written in the same transaction as the move or the session end that
finished a match, and rebuilt from every finished table in order whenever `RATING_FORMULA`
differs from the one they were built with (the start after migration 6, after a change to how
standings or ratings are computed, or after a recording failed).

Ratings come from openskill's Plackett-Luce model (a Bayesian multiplayer rating: free-for-all
and teams): each match ranks its teams (Pitch's partnerships) or its players by place, and a
player's rating is the model's ordinal, mu - 3 sigma: a skill we are fairly sure they have.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from engine.core.serialize import state_from_json
from engine.registry import UnknownGame, get_game
from tables.database import Database, Transaction
from tables.models import ANONYMOUS_FROM, FINISHED, Seat, TableRow

log = logging.getLogger(__name__)

# Bump whenever standings or ratings would come out differently: the next start rebuilds them
# from the stored matches.
RATING_FORMULA = 1
# The ratings of a game across every group (what /stats shows in a private chat).
ALL_GROUPS = 0
# The ratings of the whole fleet's matches (the `bot_id` of ratings; any other is one bot's own).
FLEET = 0
# A player with fewer rated matches than this is listed apart on the leaderboard.
PROVISIONAL_BELOW = 5
BOARD_SIZE = 10
HISTORY_SIZE = 10
# A streak is read from this many latest results; a longer one costs two more queries.
RECENT = 32
# Computer players (seats with a negative user id) are rated like everyone and listed apart:
# this one condition tells them from people.
COMPUTER = "user_id < 0"
PERSON = f"user_id BETWEEN 1 AND {ANONYMOUS_FROM - 1}"  # a forgotten person's pseudonym is no one's
WON = "(CASE WHEN place = 1 THEN 1 ELSE 0 END)"  # 1 for a won match (SQL both databases read alike)

# Which way a game's totals rank, and whether it plays in sessions, is the game's own word
# (`Game.lower_totals_win`, `Game.plays_in_sessions`).
SESSION_ENDED = "session_ended"

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300); deterministic.
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Standing:
    """Where one seat finished a match: place 1 won (several players may share a place)."""

    seat: int
    user_id: int
    place: int
    score: int
    team: int | None = None


# ----- standings and ratings (pure) -----------------------------------------------------------
def standings(table: TableRow) -> list[Standing] | None:
    """A closed table's final standings, or None when it does not count (cancelled, abandoned
    before its match ended, a session with no round won, a game this bot no longer has)."""
    if table.status != FINISHED or not table.state:
        return None
    try:
        game = get_game(table.game)
    except UnknownGame:
        return None
    state = state_from_json(game, table.state)
    scores = game.scores(state)
    if game.is_finished(state):
        winners = set(game.winners(state))
    elif game.plays_in_sessions and table.closed_reason == SESSION_ENDED:
        best = max(scores.values(), default=0)
        if best <= 0:
            return None
        winners = {player for player, score in scores.items() if score == best}
    else:
        return None
    teams = game.view(state, None).get("teams") or []
    team_of = {player: number for number, members in enumerate(teams) for player in members}
    direction = 1 if game.lower_totals_win else -1
    # Winners first (the engine's word: Pitch's bidder may go out below the others), then totals.
    key = {seat.player: (seat.player not in winners, direction * scores.get(seat.player, 0)) for seat in table.seats}
    return [
        Standing(
            seat=number,
            user_id=seat.user_id,
            place=1 + sum(other < key[seat.player] for other in key.values()),
            score=scores.get(seat.player, 0),
            team=team_of.get(seat.player),
        )
        for number, seat in enumerate(table.seats)
    ]


def lower_totals_win(name: str) -> bool:
    """Whether a game's lowest total is its best (a game this bot no longer has: the higher)."""
    try:
        return get_game(name).lower_totals_win
    except UnknownGame:
        return False


def rate(rows: Sequence[Standing], before: Mapping[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) after the match: teams (or players alone) ranked by place.
    Players missing from `before` start from the model's prior."""
    sides: dict[tuple[str, int], list[Standing]] = {}
    for row in rows:
        side = ("team", row.team) if row.team is not None else ("seat", row.seat)
        sides.setdefault(side, []).append(row)
    teams = list(sides.values())
    ratings = [
        [MODEL.rating(*before[row.user_id]) if row.user_id in before else MODEL.rating() for row in team]
        for team in teams
    ]
    rated = MODEL.rate(ratings, ranks=[float(team[0].place) for team in teams])
    return {row.user_id: (new.mu, new.sigma) for team, after in zip(teams, rated) for row, new in zip(team, after)}


def ordinal(mu: float, sigma: float) -> float:
    """The rating players see and leaderboards sort by."""
    return mu - 3 * sigma


# ----- writing (inside the store's transactions) ----------------------------------------------
async def record_match(db: Transaction, table: TableRow) -> None:
    """Write a match's results and move its players' ratings, inside the caller's transaction.

    A failure here must not lose the move that ended the match: it is logged, this match's
    records are rolled back, and the records are marked for a rebuild at the next start."""
    await db.execute("SAVEPOINT records")
    try:
        await _record(db, table)
    except Exception:
        log.exception("could not record table %s; records are rebuilt at the next start", table.table_id)
        await db.execute("ROLLBACK TO records")
        await db.execute("UPDATE records_built SET formula = 0")
    await db.execute("RELEASE records")


async def _record(db: Transaction, table: TableRow) -> None:
    rows = standings(table)
    if rows is None:
        return
    await db.executemany(
        "INSERT INTO results (table_id, seat, user_id, chat_id, game, finished_at, place, score, team, bot_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [_result_row(table, row) for row in rows],
    )
    users = [row.user_id for row in rows]
    marks = ",".join("?" * len(users))
    for bot, scope in rating_scopes(table):
        found = await db.fetchall(
            "SELECT user_id, mu, sigma, matches FROM ratings WHERE bot_id = ? AND chat_id = ? AND game = ? "
            f"AND user_id IN ({marks})",
            (bot, scope, table.game, *users),
        )
        known = {row[0]: (row[1], row[2], row[3]) for row in found}
        after = rate(rows, {user: (mu, sigma) for user, (mu, sigma, _matches) in known.items()})
        await db.executemany(
            "INSERT INTO ratings (bot_id, chat_id, game, user_id, mu, sigma, ordinal, matches) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(bot_id, chat_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "ordinal = excluded.ordinal, matches = excluded.matches",
            [
                (bot, scope, table.game, user, mu, sigma, ordinal(mu, sigma), known.get(user, (0, 0, 0))[2] + 1)
                for user, (mu, sigma) in after.items()
            ],
        )


def rating_scopes(table: TableRow) -> list[tuple[int, int]]:
    """The ratings a match moves, as (bot, chat): its group's and every group's, for the fleet
    and for the bot whose table it was (records per bot or fleet-wide are then a read's choice)."""
    bots = dict.fromkeys((FLEET, table.bot_id))
    return [(bot, scope) for bot in bots for scope in (table.chat_id, ALL_GROUPS)]


def _result_row(table: TableRow, row: Standing) -> tuple[Any, ...]:
    return (table.table_id, row.seat, row.user_id, table.chat_id, table.game, table.updated_at, row.place, row.score,
            row.team, table.bot_id)  # fmt: skip


async def ensure_built(database: Database) -> None:
    """At start-up: rebuild the records when they were built by another formula (or never)."""
    built = await database.all("SELECT formula FROM records_built")
    if built and built[0][0] == RATING_FORMULA:
        return
    log.info("building the records from the stored matches (formula %d): about 2 ms a match", RATING_FORMULA)
    try:
        counted = await database.transaction(_rebuild_marked)
    except Exception:
        # The bot still plays; /stats and /top wait for the next start's attempt.
        log.exception("could not rebuild the records")
        return
    log.info("records rebuilt from %d finished matches (formula %d)", counted, RATING_FORMULA)


async def _rebuild_marked(db: Transaction) -> int:
    counted = await rebuild(db)
    await db.execute("UPDATE records_built SET formula = ?", (RATING_FORMULA,))
    return counted


# Finished tables are read this many at a time: a large database's states need not fit in memory.
REBUILD_PAGE = 500


async def _finished_tables(db: Transaction) -> AsyncIterator[TableRow]:
    """Every finished table with a state, in the order they finished."""
    after: tuple[float, int] = (float("-inf"), 0)
    while True:
        page = await db.fetchall(
            "SELECT table_id, chat_id, game, status, seats, state, closed_reason, updated_at, bot_id FROM tables "
            "WHERE status = ? AND state IS NOT NULL AND (updated_at > ? OR (updated_at = ? AND table_id > ?)) "
            "ORDER BY updated_at, table_id LIMIT ?",
            (FINISHED, after[0], after[0], after[1], REBUILD_PAGE),
        )
        for found in page:
            yield _finished_table(found)
        if len(page) < REBUILD_PAGE:
            return
        after = (page[-1]["updated_at"], page[-1]["table_id"])


async def rebuild(db: Transaction) -> int:
    """Recompute every result and rating from the finished tables, in the order they finished
    (inside the caller's transaction). Returns how many matches count."""
    await db.execute("DELETE FROM results")
    await db.execute("DELETE FROM ratings")
    ratings: dict[tuple[int, int, str, int], tuple[float, float, int]] = {}
    counted = 0
    batch: list[tuple[Any, ...]] = []
    async for table in _finished_tables(db):
        try:
            rows = standings(table)
        except Exception:  # one unreadable state must not cost every other record
            log.warning("table %s: its state cannot be read; it is left out of the records", table.table_id)
            continue
        if rows is None:
            continue
        counted += 1
        batch.extend(_result_row(table, row) for row in rows)
        for bot, scope in rating_scopes(table):
            keys = {row.user_id: (bot, scope, table.game, row.user_id) for row in rows}
            known = {user: ratings[key] for user, key in keys.items() if key in ratings}
            after = rate(rows, {user: (mu, sigma) for user, (mu, sigma, _matches) in known.items()})
            for user, (mu, sigma) in after.items():
                ratings[(bot, scope, table.game, user)] = (mu, sigma, known.get(user, (0, 0, 0))[2] + 1)
        if len(batch) >= 5000:
            await _insert_results(db, batch)
            batch = []
    await _insert_results(db, batch)
    await db.executemany(
        "INSERT INTO ratings (bot_id, chat_id, game, user_id, mu, sigma, ordinal, matches) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(bot, scope, game, user, mu, sigma, ordinal(mu, sigma), matches)
         for (bot, scope, game, user), (mu, sigma, matches) in ratings.items()],
    )  # fmt: skip
    return counted


async def _insert_results(db: Transaction, rows: list[tuple[Any, ...]]) -> None:
    await db.executemany(
        "INSERT INTO results (table_id, seat, user_id, chat_id, game, finished_at, place, score, team, bot_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def _finished_table(row: Any) -> TableRow:
    """The parts of a stored table that its standings are computed from."""
    table_id, chat_id, game, status, seats, state, closed_reason, updated_at, bot_id = row
    return TableRow(
        table_id=table_id, chat_id=chat_id, thread_id=0, game=game, status=status, creator_id=0, options={},
        turn_seconds=0, seats=[Seat(**seat) for seat in json.loads(seats)], seed="", state=state,
        closed_reason=closed_reason, updated_at=updated_at, bot_id=bot_id,
    )  # fmt: skip


# ----- reading ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRecord:
    """One player's record in one game (in a group, or across all groups)."""

    game: str
    played: int
    won: int
    best: int  # the best total: lowest where the lowest wins
    streak: int  # the current run: wins (> 0) or matches not won (< 0)
    rating: float | None

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class Ranked:
    """A leaderboard line: `name` is None for a player who asked to stay off leaderboards."""

    user_id: int
    name: str | None
    rating: float
    matches: int


@dataclass(frozen=True)
class Board:
    game: str
    ranked: list[Ranked]  # PROVISIONAL_BELOW matches or more, best first
    provisional: list[Ranked]
    computers: list[Ranked]


@dataclass(frozen=True)
class Placed:
    """One seat of a past match, named as it sat."""

    user_id: int
    name: str
    place: int
    score: int
    team: int | None


@dataclass(frozen=True)
class PastMatch:
    table_id: int
    game: str
    finished_at: float
    seats: list[Placed]
    # Played at an arena night's table (tables/arena_nights.py).
    arena: bool = False

    @property
    def winners(self) -> list[Placed]:
        return [seat for seat in self.seats if seat.place == 1]


@dataclass(frozen=True)
class Replay:
    """A counted match's replay file (docs/REPLAY.md) and where it was played."""

    table_id: int
    chat_id: int
    game: str
    finished_at: float
    names: list[str]
    data: dict[str, Any]


class Records:
    """The queries behind /stats, /top and /history (read-only)."""

    def __init__(self, database: Database, bot: int = FLEET):
        """`bot`: whose matches count: the fleet's (`FLEET`), or one bot's (its id)."""
        self.database = database
        self.bot = bot

    def _counted(self) -> tuple[str, list[Any]]:
        """The condition on `results` that keeps the matches counted here."""
        return ("", []) if self.bot == FLEET else (" AND bot_id = ?", [self.bot])

    async def _all(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return await self.database.all(sql, parameters)

    async def _one(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, parameters)
        return rows[0] if rows else None

    # ----- /stats -------------------------------------------------------------------------
    async def of_player(self, user_id: int, chat_id: int | None) -> list[GameRecord]:
        """A player's record per game in one group (`chat_id`), or across all groups (None)."""
        where, parameters = ("user_id = ? AND chat_id = ?", [user_id, chat_id]) if chat_id is not None else (
            "user_id = ?", [user_id])  # fmt: skip
        counted, counted_parameters = self._counted()
        where, parameters = where + counted, parameters + counted_parameters
        totals = await self._all(
            f"SELECT game, COUNT(*), SUM({WON}), MIN(score), MAX(score) FROM results WHERE {where} GROUP BY game",
            parameters,
        )
        if not totals:
            return []
        games = [row[0] for row in totals]
        marks = ",".join("?" * len(games))
        ratings = {
            game: ordinal(mu, sigma)
            for game, mu, sigma in await self._all(
                f"SELECT game, mu, sigma FROM ratings WHERE bot_id = ? AND chat_id = ? AND game IN ({marks}) "
                "AND user_id = ?",
                (self.bot, ALL_GROUPS if chat_id is None else chat_id, *games, user_id),
            )
        }
        records = [
            GameRecord(
                game=game,
                played=played,
                won=won,
                best=lowest if lower_totals_win(game) else highest,
                streak=await self._streak(where, [*parameters, game]),
                rating=ratings.get(game),
            )
            for game, played, won, lowest, highest in totals
        ]
        records.sort(key=lambda record: (-record.played, record.game))
        return records

    async def _streak(self, where: str, parameters: list[Any]) -> int:
        """The current run of wins (positive) or of matches not won (negative): the latest
        results in one query, and two more only for a run longer than those."""
        newest = f"FROM results WHERE {where} AND game = ? ORDER BY finished_at DESC, table_id DESC"
        recent = [bool(row[0]) for row in await self._all(f"SELECT {WON} {newest} LIMIT ?", [*parameters, RECENT])]
        if not recent:
            return 0
        won = recent[0]
        run = next((index for index, outcome in enumerate(recent) if outcome != won), len(recent))
        if run == RECENT:
            turn = await self._one(
                f"SELECT finished_at, table_id FROM results WHERE {where} AND game = ? AND {WON} != ? "
                "ORDER BY finished_at DESC, table_id DESC LIMIT 1",
                [*parameters, int(won)],
            )
            since = "AND (finished_at, table_id) > (?, ?)" if turn else ""
            counted = await self._one(
                f"SELECT COUNT(*) FROM results WHERE {where} AND game = ? {since}", [*parameters, *(turn or ())]
            )
            run = counted[0]
        return run if won else -run

    async def hidden(self, user_id: int) -> bool:
        row = await self._one("SELECT stats_hidden FROM users WHERE user_id = ?", (user_id,))
        return bool(row and row[0])

    # ----- /top ---------------------------------------------------------------------------
    async def board(self, chat_id: int, game: str) -> Board:
        """The group's leaderboard for a game: people by rating (provisional ones apart), and
        computer players apart."""
        ranked = await self._board_part(chat_id, game, PERSON, ">=", PROVISIONAL_BELOW)
        provisional = await self._board_part(chat_id, game, PERSON, "<", PROVISIONAL_BELOW)
        computers = await self._board_part(chat_id, game, COMPUTER, ">=", 0)
        return Board(game, ranked, provisional, computers)

    async def _board_part(self, chat_id: int, game: str, who: str, compare: str, matches: int) -> list[Ranked]:
        rows = await self._all(
            "SELECT user_id, mu, sigma, matches, "
            "(SELECT first_name FROM users WHERE users.user_id = ratings.user_id), "
            "(SELECT stats_hidden FROM users WHERE users.user_id = ratings.user_id) "
            f"FROM ratings WHERE bot_id = ? AND chat_id = ? AND game = ? AND {who} AND matches {compare} ? "
            "ORDER BY ordinal DESC LIMIT ?",
            (self.bot, chat_id, game, matches, BOARD_SIZE),
        )
        return await self._ranked(rows, game)

    async def _ranked(self, rows: list[Any], game: str) -> list[Ranked]:
        unnamed = [row[0] for row in rows if row[4] is None]
        fallback = await self.seat_names(unnamed, game) if unnamed else {}
        return [
            Ranked(user, None if hidden else (name or fallback.get(user, "")), ordinal(mu, sigma), matches)
            for user, mu, sigma, matches, name, hidden in rows
        ]

    async def seat_names(self, user_ids: Iterable[int], game: str) -> dict[int, str]:
        """Names of players the bot never heard from (computer players): as they last sat at `game`."""
        names = {}
        for user in user_ids:
            row = await self._one(
                "SELECT seats FROM tables WHERE table_id = (SELECT table_id FROM results WHERE user_id = ? AND game = ? "
                "ORDER BY finished_at DESC LIMIT 1)",
                (user, game),
            )
            for seat in json.loads(row[0]) if row else []:
                if seat["user_id"] == user:
                    names[user] = seat["name"]
        return names

    async def games_rated(self, chat_id: int) -> list[str]:
        """Games with a leaderboard in this group: the one played last first, then by name."""
        counted, parameters = self._counted()
        latest = await self._one(
            f"SELECT game FROM results WHERE chat_id = ? AND seat = 0{counted} "
            "ORDER BY finished_at DESC, table_id DESC LIMIT 1",
            (chat_id, *parameters),
        )
        if latest is None:
            return []
        rated = [
            row[0]
            for row in await self._all(
                "SELECT DISTINCT game FROM ratings WHERE bot_id = ? AND chat_id = ?", (self.bot, chat_id)
            )
        ]
        return [latest[0], *sorted(game for game in rated if game != latest[0])]

    # ----- /history -----------------------------------------------------------------------
    async def history(self, chat_id: int, limit: int = HISTORY_SIZE) -> list[PastMatch]:
        """The group's last counted matches, newest first."""
        counted, parameters = self._counted()
        heads = await self._all(
            f"SELECT table_id, game, finished_at FROM results WHERE chat_id = ? AND seat = 0{counted} "
            "ORDER BY finished_at DESC, table_id DESC LIMIT ?",
            (chat_id, *parameters, limit),
        )
        if not heads:
            return []
        ids = [row[0] for row in heads]
        marks = ",".join("?" * len(ids))
        found = await self._all(f"SELECT table_id, seats, arena_id FROM tables WHERE table_id IN ({marks})", ids)
        seats = {row[0]: json.loads(row[1]) for row in found}
        arenas = {row[0] for row in found if row[2] is not None}
        placed: dict[int, list[Placed]] = {table_id: [] for table_id in ids}
        for table_id, seat, user, place, score, team in await self._all(
            f"SELECT table_id, seat, user_id, place, score, team FROM results WHERE table_id IN ({marks}) "
            "ORDER BY table_id, seat",
            ids,
        ):
            name = seats[table_id][seat]["name"] if seat < len(seats.get(table_id, [])) else ""
            placed[table_id].append(Placed(user, name, place, score, team))
        return [
            PastMatch(table_id, game, finished_at, placed[table_id], table_id in arenas)
            for table_id, game, finished_at in heads
        ]

    async def replay(self, table_id: int) -> Replay | None:
        """The replay file of a counted match: game, players, options, seed (and the deal when
        it did not come from the seed), and every action in order. None for anything else."""
        row = await self._one(
            "SELECT chat_id, game, options, seats, seed, deal, updated_at FROM tables WHERE table_id = ? "
            "AND status = ? AND EXISTS (SELECT 1 FROM results WHERE results.table_id = tables.table_id)",
            (table_id, FINISHED),
        )
        if row is None:
            return None
        chat_id, game, options, seats, seed, deal, finished_at = row
        sat = json.loads(seats)
        data: dict[str, Any] = {
            "game": game,
            "players": [str(seat["user_id"]) for seat in sat],
            "options": json.loads(options),
            "seed": seed,
        }
        dealt = json.loads(deal) if deal else {}
        if dealt.get("dealer") is not None:
            data["dealer"] = dealt["dealer"]
        if dealt.get("decks"):
            data["decks"] = dealt["decks"]
        actions = await self._all("SELECT player, action FROM actions WHERE table_id = ? ORDER BY version", (table_id,))
        data["actions"] = [[player, json.loads(action)] for player, action in actions]
        return Replay(table_id, chat_id, game, finished_at, [seat["name"] for seat in sat], data)
