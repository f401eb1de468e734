"""Karata's Mini App under load: Bot API calls per move, tap-to-every-screen latency, CPU per move.

What it does: starts the fake Bot API on 127.0.0.1 with Telegram's flood limits enforced, runs
`karata run` against it as its own process at the real limits (KARATA_BOT_RATE=30,
KARATA_GROUP_RATE=20) with the Mini App on (KARATA_WEBAPP_URL on 127.0.0.1), and opens TABLES
tables of 3 players of each game (GAMES, one bot per game and run) in as many groups (in chat,
as bench_bot.py does). Then every player
opens the app: a live WebSocket per player, and moves as HTTP presses on the open node's choices
(a marking tap, then ✔, as the page sends them). Each table's player to act presses as soon as
their screen shows the move, for SECONDS.

Two app runs: "as fast as they can" (the next press as soon as every screen of the table shows
the last one) and "at a person's pace" (a move per table every PACE seconds on average, 0.5 to
1.5 x PACE apart, the tables out of step: a group table of people rather than of scripts). Then
the same tables are played in chat the same two ways (bench_bot.py's driver: presses of the
private hand's buttons) at the same limits, for comparison.

Figures:
- moves/s: actions the bot committed per second (from its database);
- Bot API calls per move: every call the bot made (getUpdates aside) per committed move, and the
  counted ones (sends, edits, deletions: what the flood limits count) in all and to groups;
- tap->every screen p50/p99 (app runs): from sending the POST of a move to the moment the last
  other player's socket at that table has received a snapshot of that version or later;
- snapshot p50 / max (app runs): the bytes of every snapshot the players received, on their
  sockets and as the answers to their POSTs;
- CPU per move: the bot process's CPU seconds per committed move; 429s must be 0.

- tap->every screen is timed from the tap that makes the move (the ✔ after marking taps); a
  marking tap's own answer, and the moves made of several taps (Euchre's keep-five, a Lopti set),
  are printed apart. The last lines judge issue 33's goals for each game.

Run: python benchmarks/bench_miniapp.py [--tables 10] [--seconds 30] [--pace 3] [--games kadi,lopti]
       [--quick] [--profile DIR] [--db sqlite]
(--db postgresql: on a PostgreSQL server started for the run; or a postgresql:// URL.)
`--quick`: the paced runs only (the goals are a table of people's), 15 s each: the five games in
about 6 minutes. `--profile DIR`: the bot runs under cProfile, one file per run
(`python -m pstats DIR/lopti-app-paced.prof`). Times are wall-clock on this machine; the bot, the
fake Telegram and the 3 x TABLES players (an HTTP client and a socket each, in this process)
share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_bot import (  # noqa: E402
    Run,
    collector_paused,
    committed_moves,
    cpu_seconds,
    drive_karata_table,
    karata_with_tables,
    percentile,
    table_edit_delays,
)
from benchmarks.stores import Stores  # noqa: E402
from bot.demo import DEMO_TOKEN, Simulation  # noqa: E402
from bot.demo_webapp import free_port  # noqa: E402
from fakeapi import FakeBotAPI, FakeUser  # noqa: E402
from fakeapi.webapp import sign_init_data  # noqa: E402

NOT_CALLS = {"getUpdates"}


# ----- one player in the app ------------------------------------------------------------------
class AppPlayer:
    """One player's page: their HTTP requests and their live socket, and every snapshot version
    the socket brought with the time it came."""

    def __init__(self, http: aiohttp.ClientSession, base: str, table_id: int, user: FakeUser):
        self.http, self.base, self.table_id, self.user = http, base, table_id, user
        person = {"id": user.id, "first_name": user.first_name, "language_code": "en"}
        self.headers = {"X-Telegram-Init-Data": sign_init_data(DEMO_TOKEN, person)}
        self.latest: dict[str, Any] = {}
        self.arrivals: list[tuple[int, float]] = []  # (version, time) in the order they came
        self.sizes: list[int] = []  # bytes of each snapshot received (the socket's, the POSTs' answers)
        self.seat = -1
        self.changed = asyncio.Event()
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        async with self.http.get(f"{self.base}api/table/{self.table_id}", headers=self.headers) as response:
            self.take(await response.json())
        self.seat = next(seat["index"] for seat in self.latest["seats"] if seat["you"])
        self.socket = await self.http.ws_connect(f"{self.base}api/table/{self.table_id}/live")
        await self.socket.send_json({"initData": self.headers["X-Telegram-Init-Data"]})
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            self.reader.cancel()

    def take(self, snap: dict[str, Any]) -> None:
        if snap.get("revision", -1) >= self.latest.get("revision", -1):  # as the page orders them
            self.latest = snap
        self.changed.set()

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data.get("type") == "snapshot":
                self.arrivals.append((data["version"], time.monotonic()))
                self.sizes.append(len(message.data.encode()))
                self.take(data)

    def seen(self, version: int, since: float) -> float | None:
        """When this player's socket first brought `version` or a later one (after `since`)."""
        return next((at for seen, at in self.arrivals if seen >= version and at >= since), None)

    async def press(self, node: int) -> tuple[int, dict[str, Any]]:
        body = {"version": self.latest["version"], "digest": self.latest["choices"]["digest"], "node": node}
        url = f"{self.base}api/table/{self.table_id}/press"
        async with self.http.post(url, json=body, headers=self.headers) as response:
            text = await response.text()
        self.sizes.append(len(text.encode()))
        return response.status, json.loads(text)

    async def refresh(self) -> None:
        async with self.http.get(f"{self.base}api/table/{self.table_id}", headers=self.headers) as response:
            self.take(await response.json())


def tap(snap: dict[str, Any], rng: random.Random) -> int | None:
    """What a player in a hurry taps at the open node: ✔ once cards are marked, else any button
    but ↩ or an unmark."""
    buttons = snap.get("choices", {}).get("keys") or []
    confirm = [button["node"] for button in buttons if button["kind"] == "confirm"]
    if confirm:
        return confirm[0]
    fresh = [button["node"] for button in buttons if button["kind"] != "back" and not button["marked"]]
    return rng.choice(fresh) if fresh else None


async def any_change(players: list[AppPlayer], timeout: float = 0.5) -> None:
    for player in players:
        player.changed.clear()
    waits = [asyncio.ensure_future(player.changed.wait()) for player in players]
    await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for waiting in waits:
        waiting.cancel()


@dataclass
class AppRun:
    latencies: list[float] = field(default_factory=list)
    own: list[float] = field(default_factory=list)  # the move's own POST, sent to answered
    marks: list[float] = field(default_factory=list)  # a marking tap's POST (nothing played), sent to answered
    # tap->every screen of the moves chosen by several taps (Euchre's keep-five, a Lopti set).
    several: list[float] = field(default_factory=list)
    refused: int = 0
    timeouts: int = 0


async def drive_app_table(players: list[AppPlayer], rng: random.Random, until: float, pace: float, run: AppRun) -> None:
    """The table's player to act taps as soon as their screen shows the move; the next move waits
    until every other screen of the table shows this one (with `pace`, and a move begins every
    `pace` seconds on average, 0.5-1.5x apart, the tables out of step: a table of people)."""
    by_seat = {player.seat: player for player in players}
    last, gap = time.monotonic(), rng.uniform(0, pace)
    while time.monotonic() < until:
        newest = max((player.latest for player in players), key=lambda snap: snap["version"])
        actors = [by_seat[seat] for seat in newest.get("to_act", []) if seat in by_seat]
        actor = next((player for player in actors if player.latest["version"] == newest["version"]), None)
        if newest.get("status") != "running" or actor is None or tap(actor.latest, rng) is None:
            await any_change(players)  # a round's pause, or a screen not yet caught up
            continue
        if pace and last + gap > time.monotonic():
            await asyncio.sleep(last + gap - time.monotonic())
            continue  # the table may have moved on meanwhile
        last = started = time.monotonic()
        gap = pace * rng.uniform(0.5, 1.5)
        before = actor.latest["version"]
        taps = 0
        while True:  # the marking taps of a move, then its leaf
            node = tap(actor.latest, rng)
            if node is None:
                break
            taps += 1
            started = sent = time.monotonic()
            status, snap = await actor.press(node)
            answered = time.monotonic()
            if status != 200:
                run.refused += 1
                await actor.refresh()
                break
            actor.take(snap)
            if snap["version"] != before:
                run.own.append(answered - sent)
                break
            run.marks.append(answered - sent)
        version = actor.latest["version"]
        if version == before:
            continue
        others = [player for player in players if player is not actor]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(player.seen(version, started) is None for player in others):
            await asyncio.sleep(0.002)
        arrivals = [player.seen(version, started) for player in others]
        if None in arrivals:
            run.timeouts += 1
            continue
        run.latencies.append(max(arrivals) - started)  # type: ignore[type-var]
        if taps > 2:  # cards marked one by one, then ✔
            run.several.append(run.latencies[-1])


# ----- the runs ---------------------------------------------------------------------------------
class Probe(Protocol):
    """More figures of the bot process (bench_ceiling.py): its port, seen at its first poll and
    around the measured run."""

    port: int

    def at_start(self, process: Any) -> None: ...

    async def before(self, process: Any) -> None: ...

    async def after(self, process: Any) -> None: ...


@dataclass
class Figures:
    label: str
    seconds: float
    moves: int
    calls: int  # every Bot API call but getUpdates
    counted: int  # sends, edits, deletions (flood-counted)
    group_counted: int
    cpu: float
    flood_429s: int
    methods: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    own: list[float] = field(default_factory=list)
    marks: list[float] = field(default_factory=list)
    several: list[float] = field(default_factory=list)
    refused: int = 0
    timeouts: int = 0
    sizes: list[int] = field(default_factory=list)
    table_delays: list[float] = field(default_factory=list)  # chat: a press to its table message's edit

    def breakdown(self) -> str:
        per = max(1, self.moves)
        return ", ".join(f"{method} {count / per:.2f}" for method, count in self.methods.most_common())

    def row(self) -> str:
        per = max(1, self.moves)
        latency = (
            f"{percentile(self.latencies, 0.5) * 1000:.0f} ms / {percentile(self.latencies, 0.99) * 1000:.0f} ms"
            if self.latencies
            else "-"
        )
        sizes = f"{percentile(self.sizes, 0.5) / 1024:.1f} KB / {max(self.sizes) / 1024:.1f} KB" if self.sizes else "-"
        return (
            f"| {self.label} | {self.moves / self.seconds:.1f} | {self.calls / per:.2f} | {self.counted / per:.2f} "
            f"({self.group_counted / per:.2f}) | {latency} | {sizes} | {self.cpu / per * 1000:.1f} ms "
            f"({self.cpu / self.seconds:.1%} of a core) | {self.flood_429s} |"
        )


def bot_calls(api: FakeBotAPI, since: int) -> Counter[str]:
    return Counter(method for method, _ in api.calls[since:] if method not in NOT_CALLS)


async def measured(
    api: FakeBotAPI, process: Any, db_path: str, sims: list[Simulation], label: str, play, probe: Probe | None = None
) -> Figures:
    """Run `play(until)` for the run's seconds and take the bot's figures around it."""
    groups = {sim.group_id for sim in sims}
    if probe is not None:
        await probe.before(process)
    moves, flood, calls = await committed_moves(db_path), api.flood_stats(), len(api.calls)
    cpu, started = cpu_seconds(process.pid), time.monotonic()
    with collector_paused():
        await play(started)
    elapsed = time.monotonic() - started
    if probe is not None:
        await probe.after(process)
    after = api.flood_stats()
    methods = bot_calls(api, calls)
    return Figures(
        label=label,
        seconds=elapsed,
        moves=await committed_moves(db_path) - moves,
        calls=sum(methods.values()),
        counted=after.delivered - flood.delivered,
        group_counted=sum(after.delivered_per_chat.get(g, 0) - flood.delivered_per_chat.get(g, 0) for g in groups),
        cpu=cpu_seconds(process.pid) - cpu,
        flood_429s=after.violations - flood.violations,
        methods=methods,
    )


async def app_under_load(
    game: str,
    tables: int,
    seconds: float,
    pace: float,
    seed: int,
    stores: Stores | None = None,
    probe: Probe | None = None,
    profile: str | None = None,
) -> Figures:
    port = probe.port if probe is not None else free_port()
    base = f"http://127.0.0.1:{port}/app/"
    webapp = {"KARATA_WEBAPP_URL": base, "KARATA_HTTP_PORT": str(port)}
    at_start = probe.at_start if probe is not None else None
    async with karata_with_tables(
        tables, seed, game=game, stores=stores, at_start=at_start, profile=profile, **webapp
    ) as (api, process, db_path, sims):
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            store_ids = await table_ids(http, base, sims)
            players = [
                [AppPlayer(http, base, table_id, user) for user in sim.users] for sim, table_id in zip(sims, store_ids)
            ]
            for player in (p for table in players for p in table):
                await player.open()
            await settled(api)  # the chat's last catch-up (the tables opened all at once) is not the run's
            run, rng = AppRun(), random.Random(seed)

            async def play(started: float) -> None:
                until = started + seconds
                await asyncio.gather(
                    *(drive_app_table(table, random.Random(rng.random()), until, pace, run) for table in players)
                )

            figures = await measured(api, process, db_path, sims, f"{game}: app, {paced(pace)}", play, probe)
            figures.latencies, figures.own, figures.marks, figures.several = (
                run.latencies,
                run.own,
                run.marks,
                run.several,
            )
            figures.sizes = [size for table in players for player in table for size in player.sizes]
            figures.refused, figures.timeouts = run.refused, run.timeouts
            for player in (p for table in players for p in table):
                await player.close()
            return figures


async def table_ids(http: aiohttp.ClientSession, base: str, sims: list[Simulation]) -> list[int]:
    """Each group's table, as its first player's app finds it (/api/me)."""
    found = []
    for sim in sims:
        user = sim.users[0]
        person = {"id": user.id, "first_name": user.first_name, "language_code": "en"}
        headers = {"X-Telegram-Init-Data": sign_init_data(DEMO_TOKEN, person)}
        async with http.get(base + "api/me", headers=headers) as response:
            found.append((await response.json())["current"])
    return found


async def settled(api: FakeBotAPI) -> None:
    """Until the bot has made no call for 1 s: what opening the tables queued is not counted."""
    await api.settle(quiet=1.0, timeout=60)


def paced(pace: float) -> str:
    return f"a move per table every {pace:.0f} s on average" if pace else "as fast as they can"


async def chat_under_load(
    game: str,
    tables: int,
    seconds: float,
    pace: float,
    seed: int,
    stores: Stores | None = None,
    probe: Probe | None = None,
    profile: str | None = None,
) -> Figures:
    """The same tables played in chat, with bench_bot.py's drivers, at the same limits."""
    at_start, port = (probe.at_start, {"KARATA_HTTP_PORT": str(probe.port)}) if probe is not None else (None, {})
    async with karata_with_tables(
        tables, seed, game=game, stores=stores, at_start=at_start, profile=profile, **port
    ) as (api, process, db_path, sims):
        await settled(api)
        rng, run = random.Random(seed), Run()
        began: list[float] = []

        async def play(started: float) -> None:
            began.append(started)
            until = started + seconds
            await asyncio.gather(
                *(drive_karata_table(api, sim, random.Random(rng.random()), until, run, pace) for sim in sims)
            )

        figures = await measured(api, process, db_path, sims, f"{game}: chat, {paced(pace)}", play, probe)
        figures.table_delays = table_edit_delays(api, run, began[0])
        return figures


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.0f} ms" if values else "-"


def goals(game: str, runs: list[Figures]) -> list[str]:
    """The issue's goals for one game, judged on this run's figures (the paced runs: a table of
    people; the flat-out runs only add to the latencies judged)."""
    mine = {figures.label: figures for figures in runs if figures.label.startswith(f"{game}: ")}
    apps = [figures for label, figures in mine.items() if ": app," in label]
    lines = []
    sizes = [size for figures in apps for size in figures.sizes]
    if sizes:
        largest = max(sizes) / 1024
        lines.append(
            f"{game}: snapshot p50 {percentile(sizes, 0.5) / 1024:.1f} KB, max {largest:.1f} KB "
            f"(goal under 16 KB: {'met' if largest < 16 else 'NOT met'})"
        )
    for figures in apps:
        p99 = percentile(figures.latencies, 0.99) if figures.latencies else float("inf")
        several = (
            f"; moves of several taps ({len(figures.several)}) p50 {ms(figures.several, 0.5)}, "
            f"p99 {ms(figures.several, 0.99)}"
        )
        lines.append(
            f"{figures.label}: tap->every screen p50 {ms(figures.latencies, 0.5)}, p99 {ms(figures.latencies, 0.99)} "
            f"over {len(figures.latencies)} moves (goal p99 under 100 ms: {'met' if p99 < 0.1 else 'NOT met'})"
            f"{several if figures.several else ''}; a marking tap answered p50 {ms(figures.marks, 0.5)}, "
            f"p99 {ms(figures.marks, 0.99)}"
        )
    for figures in apps:
        chat = mine.get(figures.label.replace(": app,", ": chat,"))
        if chat is not None and chat.moves and figures.moves:
            app_cpu, chat_cpu = figures.cpu / figures.moves * 1000, chat.cpu / chat.moves * 1000
            lines.append(
                f"{figures.label}: CPU per move {app_cpu:.1f} ms, chat {chat_cpu:.1f} ms "
                f"(goal the app at most the chat's: {'met' if app_cpu <= chat_cpu else 'NOT met'})"
            )
        if figures.moves and ", a move per table" in figures.label:
            calls = figures.calls / figures.moves
            lines.append(
                f"{figures.label}: Bot API calls per move {calls:.2f} (goal at most 1.2: {'met' if calls <= 1.2 else 'NOT met'})"
            )
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, help="a run's length (default 30, 15 with --quick)")
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a table's moves in the paced run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip", default="", help="runs to leave out: app, chat, fast, paced (comma-separated)")
    parser.add_argument("--quick", action="store_true", help="the paced runs only (what the goals judge), 15 s each")
    parser.add_argument("--games", default="kadi,lopti,pitch,euchre3,three_thirteen", help="comma-separated")
    parser.add_argument("--profile", metavar="DIR", help="run the bot under cProfile: DIR/<game>-<run>.prof")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql (a throwaway server) or a postgresql:// URL")
    args = parser.parse_args()
    with Stores(args.db) as stores:
        await report(args, stores)


async def report(args: argparse.Namespace, stores: Stores) -> None:
    began = time.monotonic()
    skip = set(args.skip.split(",")) | ({"fast"} if args.quick else set())
    seconds = args.seconds or (15.0 if args.quick else 30.0)
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    print(f"{args.tables} tables of 3 per game, {seconds:.0f} s a run, Telegram's flood limits enforced")
    print(f"store: {stores.kind}")
    print(
        "| run | moves/s | Bot API calls/move | counted calls/move (group) | tap->every screen p50 / p99 "
        "| snapshot p50 / max | bot CPU per move | 429s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    runs = []
    games = args.games.split(",")
    for game in games:
        for where, pace in (("app", 0.0), ("app", args.pace), ("chat", 0.0), ("chat", args.pace)):
            if where in skip or ("paced" if pace else "fast") in skip:
                continue
            profile = (
                str(Path(args.profile) / f"{game}-{where}-{'paced' if pace else 'fast'}.prof") if args.profile else None
            )
            under_load = app_under_load if where == "app" else chat_under_load
            runs.append(await under_load(game, args.tables, seconds, pace, args.seed, stores, profile=profile))
            print(runs[-1].row(), flush=True)
    print()
    for figures in runs:
        print(f"{figures.label}: calls per move by method: {figures.breakdown()}")
        if figures.own:
            print(
                f"{figures.label}: the move's own POST answered p50 {ms(figures.own, 0.5)}, p99 {ms(figures.own, 0.99)}"
            )
        if figures.refused or figures.timeouts:
            print(
                f"{figures.label}: {figures.refused} presses refused, "
                f"{figures.timeouts} moves not on every screen within 10 s"
            )
    print()
    print("Goals (issue 33):")
    for game in games:
        for line in goals(game, runs):
            print(line)
    print(f"\nThe whole benchmark took {time.monotonic() - began:.0f} s.")


if __name__ == "__main__":
    asyncio.run(main())
