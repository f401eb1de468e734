"""The ceiling of one process: the whole path (`karata run` against the fake Bot API with
Telegram's limits enforced), every player in the Mini App and, separately, in chat, at 10, 100
and 500 tables, on SQLite and on PostgreSQL in one run.

Each run is bench_miniapp.py's driver at its flat-out setting (the next press as soon as every
screen shows the last move), one Kadi table of 3 per group, on a fresh database: in the app
(presses over HTTP, screens over the sockets) and in chat (presses of the private hands' buttons,
the bot held to 30 calls a second and 20 a minute per group). Figures per run:
- moves/s and the bot process's CPU per move (and its share of a core);
- p99 tap-to-screens: app, from a tap to the last other player's screen showing it; chat, from a
  press to its group's table message being edited;
- event-loop lag p99: from the bot's own `karata_event_loop_lag_seconds` on /metrics over the run
  (a histogram: the bucket's upper bound; probed once a second);
- RSS per table: the bot's resident memory growth from its first poll to the run's end, per table;
- 429s (must be 0).
The tables open before the measured phase through the same fake Telegram and the same bot (a
/newgame, three join links and Start per group), OPENING_AT_ONCE groups at a time
(bench_bot.py): each group has its own 20 calls a minute, so only the token's 30 a second paces
the openings (500 tables in a few minutes, where one at a time took about 5 s each). The
measured phase starts once every opening's last call is sent; what it measures is unchanged.
PostgreSQL is a throwaway server started for the run (tests/postgres_server.py) unless --postgres
gives a URL; its own processes' CPU is not in "CPU per move" (bench_stores.py shows it).

Run: python benchmarks/bench_ceiling.py [--tables 10,100,500] [--seconds 30] [--quick]
(--quick: 10 and 100 tables, 10 s a run). Print the load average beside the figures: the machine
is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_bot import percentile  # noqa: E402
from benchmarks.bench_miniapp import Figures, app_under_load, chat_under_load  # noqa: E402
from benchmarks.stores import Stores  # noqa: E402
from bot.demo_webapp import free_port  # noqa: E402
from tables.metrics import LAG_BUCKETS  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")
LAG = "karata_event_loop_lag_seconds_bucket"


def rss_bytes(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE


async def lag_buckets(port: int) -> dict[float, float]:
    """The loop-lag histogram's cumulative buckets, by upper bound, from the bot's /metrics."""
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as response:
        text = await response.text()
    buckets = {}
    for line in text.splitlines():
        if line.startswith(LAG):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            buckets[float(bound)] = float(line.rsplit(" ", 1)[1])
    return buckets


class Probe:
    """The bot's memory at its first poll and after the run, and its loop lag over the run."""

    def __init__(self, tables: int):
        self.tables = tables
        self.port = free_port()
        self.rss_at_start = 0
        self.rss_per_table = 0.0
        self.lag_before: dict[float, float] = {}
        self.lag_p99 = float("nan")

    def at_start(self, process: Any) -> None:
        self.rss_at_start = rss_bytes(process.pid)

    async def before(self, process: Any) -> None:
        self.lag_before = await lag_buckets(self.port)

    async def after(self, process: Any) -> None:
        self.rss_per_table = (rss_bytes(process.pid) - self.rss_at_start) / self.tables
        after = await lag_buckets(self.port)
        counts = {bound: after[bound] - self.lag_before.get(bound, 0.0) for bound in sorted(after)}
        total = counts.get(float("inf"), 0.0)
        self.lag_p99 = next((bound for bound, count in counts.items() if total and count >= 0.99 * total), self.lag_p99)


def row(kind: str, tables: int, where: str, figures: Figures, probe: Probe) -> str:
    moves = max(1, figures.moves)
    delays = figures.latencies if where == "app" else figures.table_delays
    p99 = f"{percentile(delays, 0.99) * 1000:.0f} ms" if delays else "-"
    # Beyond the histogram's last finite bucket (2.5 s) its bound is infinite.
    lag = f"{probe.lag_p99 * 1000:.0f} ms" if probe.lag_p99 < float("inf") else f"> {max(LAG_BUCKETS) * 1000:.0f} ms"
    return (
        f"| {kind} | {tables} | {where} | {figures.moves / figures.seconds:.1f} "
        f"| {figures.cpu / moves * 1000:.1f} ms ({figures.cpu / figures.seconds:.0%}) | {p99} "
        f"| {lag} | {probe.rss_per_table / 1024:.0f} KiB | {figures.flood_429s} |"
    )


async def main_async(counts: list[int], seconds: float, postgres: str | None, seed: int) -> None:
    print(f"load average at the start: {' '.join(f'{value:.1f}' for value in os.getloadavg())}")
    print(
        "| store | tables | where | moves/s | bot CPU per move (of a core) | p99 tap-to-screens "
        "| loop lag p99 | RSS per table | 429s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for db in ("sqlite", postgres or "postgresql"):
        with Stores(db) as stores:
            for count in counts:
                for where, run in (("app", app_under_load), ("chat", chat_under_load)):
                    probe = Probe(count)
                    figures = await run("kadi", count, seconds, 0.0, seed, stores, probe)
                    print(row(stores.kind, count, where, figures, probe), flush=True)
    print(f"load average at the end: {' '.join(f'{value:.1f}' for value in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,100,500", help="table counts, comma separated")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--quick", action="store_true", help="10 and 100 tables, 10 s a run")
    parser.add_argument("--postgres", help="a PostgreSQL URL to use instead of starting a server")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts = [10, 100] if args.quick else [int(count) for count in args.tables.split(",")]
    asyncio.run(main_async(counts, 10 if args.quick else args.seconds, args.postgres, args.seed))


if __name__ == "__main__":
    main()
