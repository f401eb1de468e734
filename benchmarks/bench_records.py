"""How fast /top, /stats and /history answer on a database of 100,000 finished matches, how long
the records take to build from it (the first start after migration 6, or after a formula
change), and what recording one more match adds to the move that ends it.

The database is built as the bot would have left it: finished tables with real final engine
states, seats and chats (no action logs: nothing here reads them). A few hundred matches of the
five games are played by random legal moves through the engines (Lopti sessions end after their
third round), and each of the N tables reuses one of them with other players (the state's
player names rewritten). Matches are spread over a year and over 1,000 groups: one busy group
holds a fifth of them among 40 players, one of whom ("the regular") sat at half of those; the
other groups have 20 players each from a pool of 20,000; 2% of seats are computer players.

Then the real Store opens it (migration 6 has nothing to migrate; the records are built:
timed), and the commands' work is timed as the handlers do it: the queries through the bot's
own aiosqlite connection, and the message text rendered from their results (Telegram itself is
not included). Wall time (`time.perf_counter`), each case many times: median, 95th percentile
and worst.

Run: python benchmarks/bench_records.py [--matches N] [--db PATH] [--repeat K]
(with --db naming a database built before, it is timed again without building)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.options import options_dict, parse_options  # noqa: E402
from engine.core.serialize import state_to_json  # noqa: E402
from engine.registry import get_game  # noqa: E402
from handlers.i18n import translator  # noqa: E402
from handlers.presentation.render.records import board_text, history_text, stats_text  # noqa: E402
from tables.records import record_match  # noqa: E402
from tables.store import MIGRATIONS, Store  # noqa: E402

BUSY_GROUP = -1_000_000_000_001
GROUPS = 1_000
BUSY_SHARE = 0.2
BUSY_PLAYERS = range(1, 41)
REGULAR = 1
POOL = range(1_000, 21_000)
COMPUTERS = range(-5, 0)
# (game, options, players, share of matches)
KINDS = [
    ("kadi", {}, 4, 0.25),
    ("kadi", {"hand_size": 5}, 3, 0.15),
    ("lopti", {}, 4, 0.2),
    ("pitch", {}, 3, 0.1),
    ("pitch", {"partnerships": True}, 4, 0.1),
    ("euchre3", {}, 3, 0.1),
    ("three_thirteen", {}, 3, 0.1),
]
TEMPLATES_PER_KIND = 40
MOST_MOVES = 5_000
YEAR = 365 * 24 * 3600


def templates(rng: random.Random) -> list[tuple[str, dict, int, float, list[str]]]:
    """Final states of random matches, with players p0, p1, ... to be renamed."""
    made = []
    for game_name, options, count, share in KINDS:
        game = get_game(game_name)
        parsed = parse_options(game.Options, options)
        players = [f"p{index}" for index in range(count)]
        states: list[str] = []
        seeds = iter(range(10**6))
        while len(states) < TEMPLATES_PER_KIND:
            state = game.new(players, parsed, f"template-{game_name}-{next(seeds)}")
            moves = 0
            while not game.is_finished(state) and not (game_name == "lopti" and game.round_number(state) > 3):
                player = game.to_act(state)[0]
                legal = game.legal_actions(state, player)
                out = [action for action in legal if action["type"] == "go_out"]  # Three Thirteen ends sooner
                state = game.apply(state, player, out[0] if out else rng.choice(legal)).state
                moves += 1
                if moves > MOST_MOVES:
                    break  # random bidding can set Pitch teams back for ever: take another deal
            else:
                states.append(state_to_json(game, state))
        made.append((game_name, options_dict(parsed), count, share, states))
    return made


def seats_for(chat: int, count: int, rng: random.Random, members: dict[int, list[int]]) -> list[int]:
    if chat == BUSY_GROUP:
        others = rng.sample([user for user in BUSY_PLAYERS if user != REGULAR], count)
        if rng.random() < 0.5:
            others[rng.randrange(count)] = REGULAR
        chosen = others
    else:
        chosen = rng.sample(members[chat], count)
    return [rng.choice(COMPUTERS) if rng.random() < 0.02 else user for user in chosen]


def build(path: str, matches: int, rng: random.Random) -> None:
    """A database at migration 6 whose records are not built yet (as right after the migration)."""
    made = templates(rng)
    weights = [share for _game, _options, _count, share, _states in made]
    members = {-1_000_000_002 - number: rng.sample(POOL, 20) for number in range(GROUPS - 1)}
    others = list(members)
    start = time.time() - YEAR
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        for number, script in enumerate(MIGRATIONS, start=1):
            db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
        db.executemany(
            "INSERT INTO users (user_id, first_name, language) VALUES (?, ?, 'sw')",
            [(user, f"Player {user}") for user in [*BUSY_PLAYERS, *POOL]],
        )
        rows = []
        for number in range(matches):
            game_name, options, count, _share, states = rng.choices(made, weights)[0]
            chat = BUSY_GROUP if rng.random() < BUSY_SHARE else rng.choice(others)
            users = seats_for(chat, count, rng, members)
            state = rng.choice(states)
            for index, user in enumerate(users):
                state = state.replace(f'"p{index}"', f'"{user}"')
            seats = json.dumps([{"user_id": user, "name": f"Player {user}"} for user in users])
            at = start + number * YEAR / matches
            closed = "session_ended" if game_name == "lopti" else None
            rows.append(
                (chat, game_name, users[0], json.dumps(options), seats, f"seed-{number}", state, at, at, closed)
            )
        db.executemany(
            "INSERT INTO tables (chat_id, game, status, creator_id, options, turn_seconds, seats, seed, state, "
            "version, created_at, updated_at, closed_reason) VALUES (?, ?, 'finished', ?, ?, 90, ?, ?, ?, 100, ?, ?, ?)",
            rows,
        )
        db.commit()


def figures(samples: list[float]) -> str:
    """The first call apart (its pages may still be on disk), then median, p95 and worst of the rest."""
    first, ordered = samples[0], sorted(samples[1:])
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"first {first * 1000:6.1f} ms   median {statistics.median(ordered) * 1000:5.1f} ms   "
            f"p95 {p95 * 1000:5.1f} ms   worst {ordered[-1] * 1000:6.1f} ms")  # fmt: skip


async def timed(repeat: int, work) -> list[float]:
    samples = []
    for index in range(repeat):
        began = time.perf_counter()
        await work(index)
        samples.append(time.perf_counter() - began)
    return samples


async def measure(path: str, repeat: int, rng: random.Random) -> None:
    store = Store(path)
    began = time.perf_counter()
    await store.open()
    built = time.perf_counter() - began
    counted = (await store._one("SELECT COUNT(*) FROM results WHERE seat = 0"))[0]
    seats = (await store._one("SELECT COUNT(*) FROM results"))[0]
    print(
        f"store opened (records built if they were not): {built:.1f} s; {counted:,} counted matches, {seats:,} results"
    )
    records = store.records
    _ = translator("sw")
    games = await records.games_rated(BUSY_GROUP)
    regular = (await store._one("SELECT COUNT(*) FROM results WHERE user_id = ? AND chat_id = ?",
                                (REGULAR, BUSY_GROUP)))[0]  # fmt: skip
    print(f"busy group: {games}; the regular played {regular:,} matches there")

    async def top(index: int) -> None:
        game = games[index % len(games)]
        board_text(await records.board(BUSY_GROUP, game), await records.games_rated(BUSY_GROUP), _)

    async def stats_here(index: int) -> None:
        stats_text("Player 1", await records.of_player(REGULAR, BUSY_GROUP), True, _)

    async def stats_everywhere(index: int) -> None:
        stats_text("Player 1", await records.of_player(REGULAR, None), False, _)

    pairs = await store._all("SELECT user_id, chat_id FROM results WHERE user_id > 0 ORDER BY random() LIMIT 500")

    async def stats_anyone(index: int) -> None:
        user, chat = pairs[index % len(pairs)]
        stats_text("Player", await records.of_player(user, chat), True, _)

    async def top_anywhere(index: int) -> None:
        chat = pairs[index % len(pairs)][1]
        played = await records.games_rated(chat)
        board_text(await records.board(chat, played[0]), played, _)

    async def history(index: int) -> None:
        history_text(await records.history(BUSY_GROUP), _)

    for label, work in (
        ("/top in the busy group (each game)", top),
        ("/top in a random group", top_anywhere),
        ("/stats of the regular in the busy group", stats_here),
        ("/stats of the regular in private (all groups)", stats_everywhere),
        ("/stats of a random player in a group", stats_anyone),
        ("/history in the busy group", history),
    ):
        print(f"{label:48} {figures(await timed(repeat, work))}")

    # What ending one more match adds: its results and four rating updates, in one transaction.
    finished = await store._all("SELECT * FROM tables WHERE status = 'finished' AND game = 'kadi' LIMIT ?", (repeat,))
    copies = []
    for row in finished:  # more of the same matches, finishing now
        await store._write(
            "INSERT INTO tables (chat_id, game, status, creator_id, options, turn_seconds, seats, seed, state, "
            "created_at, updated_at) SELECT chat_id, game, status, creator_id, options, turn_seconds, seats, seed, "
            "state, created_at, ? FROM tables WHERE table_id = ?",
            (time.time(), row["table_id"]),
        )
        copies.append(await store.get_table((await store._one("SELECT MAX(table_id) FROM tables"))[0]))

    async def record(index: int) -> None:
        await store.database.transaction(lambda transaction: record_match(transaction, copies[index % len(copies)]))

    print(f"{'recording one finished match (commit included)':48} {figures(await timed(repeat, record))}")
    for label, sql, parameters in (
        ("/top", "SELECT user_id FROM ratings WHERE chat_id = ? AND game = ? AND user_id > 0 AND matches >= 5 "
                 "ORDER BY ordinal DESC LIMIT 10", (BUSY_GROUP, "kadi")),
        ("/stats", "SELECT game, COUNT(*), SUM(place = 1), MIN(score), MAX(score) FROM results "
                   "WHERE user_id = ? AND chat_id = ? GROUP BY game", (REGULAR, BUSY_GROUP)),
        ("/stats everywhere", "SELECT game, COUNT(*), SUM(place = 1), MIN(score), MAX(score) FROM results "
                              "WHERE user_id = ? GROUP BY game", (REGULAR,)),
        ("/history", "SELECT table_id FROM results WHERE chat_id = ? AND seat = 0 "
                     "ORDER BY finished_at DESC, table_id DESC LIMIT 10", (BUSY_GROUP,)),
    ):  # fmt: skip
        plan = await store._all(f"EXPLAIN QUERY PLAN {sql}", parameters)
        print(f"plan {label}: " + "; ".join(row[3] for row in plan))
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument(
        "--db", help="where to build the database, or one built before to time again (default: a temporary folder)"
    )
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as folder:
        path = args.db or str(Path(folder) / "records.db")
        if Path(path).exists():
            print(f"using the database at {path} as it is")
        else:
            began = time.perf_counter()
            build(path, args.matches, rng)
            print(f"built {args.matches:,} finished matches in {time.perf_counter() - began:.1f} s "
                  f"({Path(path).stat().st_size / 2**20:.0f} MiB)")  # fmt: skip
        asyncio.run(measure(path, args.repeat, rng))


if __name__ == "__main__":
    main()
