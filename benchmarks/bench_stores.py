"""The table service on SQLite and on PostgreSQL, in one run, at 10, 100 and 500 tables.

What it measures: the part of a press below Telegram (load the table, the engine's move, the
commit of the move with its action, and the match's records when it ends), driven flat out:
every table has its own two players, and all tables move at once (one coroutine per table,
each making its next move as soon as the last one is committed). Per store and table count:
moves per second, CPU per move of this process and, for PostgreSQL, of the server's processes
too, p50 and p99 of press-to-commit, the event loop's lag (a 10 ms ticker's overshoot, p99 and
max), and resident memory per open table. Telegram (rendering, the courier, flood limits) is not
in these figures: bench_bot.py measures the whole path on SQLite.

PostgreSQL is Debian's server started for the run in a temporary folder (tests/postgres_server.py),
or the one at --postgres URL.

Run: python benchmarks/bench_stores.py [--tables 10,100,500] [--moves 10] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tables.feed import ChangeFeed  # noqa: E402
from tables.models import Seat  # noqa: E402
from tables.service import TableService  # noqa: E402
from tables.store import Store  # noqa: E402
from tests.postgres_server import PostgresServer  # noqa: E402

TICK = 0.01
PAGE = os.sysconf("SC_PAGE_SIZE")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def rss_bytes() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * PAGE


def server_cpu_seconds(server: PostgresServer | None) -> float:
    """CPU time of the PostgreSQL server's processes (the postmaster and its children)."""
    if server is None or server.folder is None:
        return 0.0
    postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == postmaster or int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


async def open_tables(service: TableService, count: int, first_user: int) -> list[int]:
    ids = []
    for index in range(count):
        seats = [Seat(first_user + 2 * index, "A"), Seat(first_user + 2 * index + 1, "B")]
        for seat in seats:
            await service.store.remember_user(seat.user_id, seat.name, "en")
        opened = await service.lobby.open_lobby(-1_000_000 - first_user - index, 0, "kadi", seats[0], {}, 0)
        assert opened.ok and opened.table is not None, opened
        assert (await service.lobby.join(opened.table.table_id, seats[1], opened.table.join_token)).ok
        assert (await service.lobby.start(opened.table.table_id, seats[0].user_id)).ok
        ids.append(opened.table.table_id)
    return ids


async def play(service: TableService, table_id: int, moves: int, rng: random.Random, latencies: list[float]) -> int:
    made = 0
    while made < moves:
        loaded = await service.load(table_id)
        if loaded is None or loaded.state is None or loaded.table.status != "playing":
            return made
        player = loaded.game.to_act(loaded.state)[0]
        action = rng.choice(loaded.game.legal_actions(loaded.state, player))
        started = time.perf_counter()
        outcome = await service.play.act(table_id, player, loaded.table.version, action)
        latencies.append(time.perf_counter() - started)
        made += outcome.ok
    return made


async def ticker(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append(time.perf_counter() - before - TICK)


async def measure(target: str, tables: int, moves: int, first_user: int, server: PostgresServer | None) -> dict:
    store = Store(target)
    await store.open()
    service = TableService(store, ChangeFeed())
    seeds = itertools.count(first_user)
    service.lobby.new_seed = lambda: f"bench-{next(seeds)}"
    before_rss = rss_bytes()
    ids = await open_tables(service, tables, first_user)
    per_table = (rss_bytes() - before_rss) / tables
    latencies: list[float] = []
    lags: list[float] = []
    stop = asyncio.Event()
    ticking = asyncio.create_task(ticker(lags, stop))
    cpu, server_cpu, wall = time.process_time(), server_cpu_seconds(server), time.perf_counter()
    rng = random.Random(first_user)
    made = sum(await asyncio.gather(*(play(service, table_id, moves, rng, latencies) for table_id in ids)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    server_cpu = server_cpu_seconds(server) - server_cpu
    stop.set()
    await ticking
    await store.close()
    quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
    lag_quantiles = statistics.quantiles(lags, n=100, method="inclusive") if len(lags) > 1 else [0.0] * 99
    return {
        "moves/s": made / wall,
        "cpu ms/move": 1000 * cpu / made,
        "server cpu ms/move": 1000 * server_cpu / made,
        "p50 ms": 1000 * quantiles[49],
        "p99 ms": 1000 * quantiles[98],
        "loop lag p99 ms": 1000 * lag_quantiles[98],
        "loop lag max ms": 1000 * max(lags, default=0.0),
        "rss KiB/table": per_table / 1024,
    }


async def main_async(counts: list[int], moves: int, postgres: str | None) -> None:
    server = None
    if postgres is None:
        server = PostgresServer()
        if server.unavailable is None:
            server.start()
        if server.unavailable:
            raise SystemExit(f"no PostgreSQL: {server.unavailable}")
    folder = Path(tempfile.mkdtemp(prefix="bench-stores-"))
    try:
        print(f"{'store':10} {'tables':>6} " + " ".join(f"{name:>18}" for name in (
            "moves/s", "cpu ms/move", "server cpu ms/move", "p50 ms", "p99 ms", "loop lag p99 ms", "loop lag max ms",
            "rss KiB/table")))  # fmt: skip
        for count in counts:
            for kind in ("sqlite", "postgresql"):
                if kind == "sqlite":
                    target = str(folder / f"bench-{count}.db")
                else:
                    target = postgres if postgres else server.new_database()  # type: ignore[union-attr]
                figures = await measure(target, count, moves, 10_000 * count, server if kind == "postgresql" else None)
                print(f"{kind:10} {count:>6} " + " ".join(f"{value:>18.2f}" for value in figures.values()), flush=True)
    finally:
        if server is not None:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,100,500", help="table counts, comma separated")
    parser.add_argument("--moves", type=int, default=10, help="moves per table")
    parser.add_argument("--postgres", help="a PostgreSQL URL to use instead of starting a server")
    args = parser.parse_args()
    asyncio.run(main_async([int(count) for count in args.tables.split(",")], args.moves, args.postgres))


if __name__ == "__main__":
    main()
