"""The server's cost of watchers: one table of 3 players in the Mini App, with and without WATCHERS
people watching it through the group's 👀 Watch link (a socket each, opened as the page opens it).

What it does: as benchmarks/bench_miniapp.py (its players, drivers and figures): `karata run` as
its own process against the fake Bot API at Telegram's limits, with the Mini App on; the table's
player to act taps as soon as their screen shows the last move. Each run is measured twice, with
no watcher and with WATCHERS, "as fast as they can" and at a person's pace (a move every PACE
seconds on average).

Figures (a row each, bench_miniapp.py's columns):
- tap->every screen p50/p99: from the move's POST to the moment the last socket of the table (the
  other players' and every watcher's) has the new version; goal p99 < 250 ms with 100 watchers;
- bot CPU per move: the bot process's CPU seconds per committed move (watchers share one screen
  per table change and language, so they should add little);
- Bot API calls per move: the same with watchers as without (they cost none).

Run: python benchmarks/bench_watchers.py [--watchers 100] [--seconds 30] [--pace 3]
Times are wall-clock on this machine; the bot, the fake Telegram, the players and the watchers
(in this process) share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_bot import karata_with_tables  # noqa: E402
from benchmarks.bench_miniapp import AppPlayer, AppRun, Figures, drive_app_table, measured, paced, table_ids  # noqa: E402
from bot.demo import DEMO_TOKEN, Simulation  # noqa: E402
from bot.demo_webapp import free_port  # noqa: E402
from fakeapi import FakeUser  # noqa: E402
from fakeapi.webapp import sign_init_data  # noqa: E402


class Watcher(AppPlayer):
    """A watcher's page: its GET and its live socket, with no seat (never the one to act)."""

    def __init__(self, http: aiohttp.ClientSession, base: str, table_id: int, user: FakeUser, start_param: str):
        super().__init__(http, base, table_id, user)
        person = {"id": user.id, "first_name": user.first_name, "language_code": "sw"}
        self.headers = {"X-Telegram-Init-Data": sign_init_data(DEMO_TOKEN, person, start_param=start_param)}

    async def open(self) -> None:
        async with self.http.get(f"{self.base}api/table/{self.table_id}", headers=self.headers) as response:
            snap = await response.json()
            assert snap.get("watching"), snap
            self.take(snap)
        self.socket = await self.http.ws_connect(f"{self.base}api/table/{self.table_id}/live")
        await self.socket.send_json({"initData": self.headers["X-Telegram-Init-Data"]})
        self.reader = asyncio.get_running_loop().create_task(self._read())


def watch_param(sim: Simulation) -> str | None:
    """The start parameter of the group table's 👀 Watch link (None until it shows)."""
    message = sim.table_message()
    urls = [url for row in (message.buttons if message else []) for label, url in row if label.startswith("👀")]
    return parse_qs(urlparse(urls[0]).query)["startapp"][0] if urls and urls[0] else None


async def watched_table(game: str, watchers: int, seconds: float, pace: float, seed: int) -> Figures:
    port = free_port()
    base = f"http://127.0.0.1:{port}/app/"
    webapp = {"KARATA_WEBAPP_URL": base, "KARATA_HTTP_PORT": str(port), "KARATA_WEBAPP_NAME": "karata"}
    async with karata_with_tables(1, seed, game=game, **webapp) as (api, process, db_path, sims):
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            [table_id] = await table_ids(http, base, sims)
            players = [AppPlayer(http, base, table_id, user) for user in sims[0].users]
            param = await api.wait_until(lambda: watch_param(sims[0]), what="the watch link")
            people = [
                api.add_user(900000 + index, f"Mtazamaji {index}", language_code="sw") for index in range(watchers)
            ]
            watching = [Watcher(http, base, table_id, person, param) for person in people]
            for page in [*players, *watching]:
                await page.open()
            await asyncio.sleep(2)  # the chat hands' last catch-up, before the sockets opened
            run = AppRun()

            async def play(started: float) -> None:
                await drive_app_table([*players, *watching], random.Random(seed), started + seconds, pace, run)

            label = f"{game}: {watchers} watchers, {paced(pace)}"
            figures = await measured(api, process, db_path, sims, label, play)
            figures.latencies, figures.own = run.latencies, run.own
            figures.sizes = [size for page in watching for size in page.sizes]
            figures.refused, figures.timeouts = run.refused, run.timeouts
            for page in [*players, *watching]:
                await page.close()
            return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between the table's moves in the paced run")
    parser.add_argument("--game", default="kadi")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"one {args.game} table of 3 in the app, {args.seconds:.0f} s a run, Telegram's flood limits enforced")
    print(
        "| run | moves/s | Bot API calls/move | counted calls/move (group) | tap->every screen p50 / p99 "
        "| watcher's snapshot p50 / max | bot CPU per move | 429s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for pace in (0.0, args.pace):
        for watchers in (0, args.watchers):
            figures = await watched_table(args.game, watchers, args.seconds, pace, args.seed)
            print(figures.row(), flush=True)
            if figures.refused or figures.timeouts:
                print(f"  {figures.refused} presses refused, {figures.timeouts} moves not on every screen within 10 s")


if __name__ == "__main__":
    asyncio.run(main())
