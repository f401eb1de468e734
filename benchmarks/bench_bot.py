"""Karata under load against a strict fake Telegram: press speed, flood limits, calls, CPU, restarts.

What it does: starts the fake Bot API on 127.0.0.1 with Telegram's flood limits enforced (a 429
beyond 20 counted calls per group in any sliding minute, or 30 bot-wide in any sliding second),
runs `karata run` against it as its own process (real limits: KARATA_BOT_RATE=30,
KARATA_GROUP_RATE=20), opens TABLES Kadi tables of 3 players in as many groups, and lets the
players press as fast as the bot shows them their buttons for SECONDS: each table's current
player presses a button of their private hand as soon as it appears, and presses again once
the press's effect is shown. Then the same drivers run against a no-op bot
(benchmarks/noop_bot.py: answers the press, edits the message) behind the same limiter.

Figures, per table count:
- moves/s: actions the bot committed per second (from its database);
- press->answer p50/p99: from the press's update to the answerCallbackQuery (the spinner), and
  the part of it inside the bot (from the getUpdates that handed it over to the answer);
- press->table p50/p99: from a press to the first edit of its group's table message after it;
- calls per move: counted calls (sends, edits, deletions, polls; not answers) per committed
  move, in all and to groups only;
- busiest group minute, busiest bot second: most counted calls delivered in any sliding window;
- 429s: calls Telegram would have refused (must be 0);
- updates/s vs the no-op bot with the same limiter (goal >= 0.8x);
- CPU per move, Karata and the no-op bot, both limiters lifted (goal within 3x); the no-op bot
  twice, with PTB's default HTTP client (httpx) and with Karata's (aiohttp, bot/http_client.py).
And restart time by table count: from starting `karata run` on a database with N running tables
to its first getUpdates (goal < 3 s for 10,000).

Run: python benchmarks/bench_bot.py [--tables 1,10,50] [--seconds 30] [--restart 1000,10000] [--db sqlite]
(--db postgresql: the same on a PostgreSQL server started for the run; or a postgresql:// URL.)
Times are wall-clock on this machine (2 cores); the bot, the fake and the drivers share them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.stores import Stores, committed_moves  # noqa: E402
from bot.demo import DEMO_TOKEN, PLAYER_NAMES, Simulation  # noqa: E402
from fakeapi import FakeBotAPI, FakeUser, MessageRecord  # noqa: E402

PLAYERS = 3
# Tables opened at once (each in its own group), and how long an opening's step may take.
OPENING_AT_ONCE = 25
OPENING_SECONDS = 600.0
TICKS = os.sysconf("SC_CLK_TCK")


# ----- processes ------------------------------------------------------------------------------
@contextmanager
def collector_paused():
    """No garbage collection in this process (the fake Telegram and the players) while a run is
    measured, as timeit does: the fake stamps every call it receives, and a full collection of
    its growing records stopped it for up to 0.1 s, which the figures counted as the bot's."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def start_process(
    script: list[str], api: FakeBotAPI, db_path: str, limits: bool, **extra_env: str
) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "BOT_TOKEN": DEMO_TOKEN,
        "TELEGRAM_API_BASE_URL": api.base_url,
        "KARATA_DB": db_path,
        "KARATA_GROUP_LANGUAGE": "en",
        "KARATA_TURN_SECONDS": "0",
        "KARATA_NUDGE_SECONDS": "0",
        "KARATA_LOG_LEVEL": "WARNING",
        "KARATA_HTTP_LISTEN": "127.0.0.1",
        "KARATA_HTTP_PORT": "0",
        "KARATA_BOT_RATE": "30" if limits else "10000",
        "KARATA_GROUP_RATE": "20" if limits else "6000",
        **extra_env,
    }
    return await asyncio.create_subprocess_exec(
        sys.executable, *script, cwd=ROOT, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )


async def stop_process(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def wait_for_poll(api: FakeBotAPI, timeout: float = 60) -> None:
    await api.wait_until(lambda: any(method == "getUpdates" for method, _ in api.calls), timeout, "the first poll")


# ----- drivers --------------------------------------------------------------------------------
def buttons(message: MessageRecord | None, prefix: str) -> list[str]:
    if message is None or message.deleted:
        return []
    return [data for row in message.buttons for label, data in row if (data or "").startswith(prefix) and label != "↩"]


def choice(message: MessageRecord, rng: random.Random) -> str:
    """What a player in a hurry presses: ✔ once cards are marked, else any button but an unmark."""
    labelled = [(label, data) for row in message.buttons for label, data in row if (data or "").startswith("T:")]
    confirm = [data for label, data in labelled if label.startswith("✔")]
    if confirm:
        return confirm[0]
    # A marked card shows ✅ before the card (Lopti's "✅ Ready" is a move).
    fresh = [data for label, data in labelled if label != "↩" and (not label.startswith("✅") or label == "✅ Ready")]
    return rng.choice(fresh or [data for _, data in labelled])


def latest_with_buttons(api: FakeBotAPI, user: FakeUser, prefix: str) -> MessageRecord | None:
    for message in reversed(api.bot_messages(user.id)):
        if buttons(message, prefix):
            return message
    return None


@dataclass
class Run:
    presses: list[float] = field(default_factory=list)  # press times
    groups: list[int] = field(default_factory=list)  # the group of each press


async def drive_karata_table(
    api: FakeBotAPI, sim: Simulation, rng: random.Random, until: float, run: Run, pace: float = 0.0
) -> None:
    """The table's players press as soon as their buttons show, then wait to see the effect (with
    `pace`, a move begins every `pace` seconds on average, 0.5-1.5x apart, the tables out of step:
    a table of people)."""
    began, gap = time.monotonic(), rng.uniform(0, pace)
    while time.monotonic() < until:
        ready = [(user, message) for user in sim.users if (message := latest_with_buttons(api, user, "T:"))]
        if not ready:
            await asyncio.sleep(0.01)
            continue
        user, message = rng.choice(ready)
        if pace and not any(label.startswith("✔") for row in message.buttons for label, _ in row):
            if began + gap > time.monotonic():
                await asyncio.sleep(began + gap - time.monotonic())
                continue  # the table may have moved on meanwhile
            began, gap = time.monotonic(), pace * rng.uniform(0.5, 1.5)
        versions = {user.id: len(message.versions) for user, message in ready}
        run.presses.append(time.monotonic())
        run.groups.append(sim.group_id)
        query = await api.press(user, user.id, message.message_id, choice(message, rng))
        try:
            answer = await api.wait_for_answer(query, timeout=30)
            if answer.get("text"):
                continue  # refused (a toast says why): nothing changes on screen

            def shown() -> bool:
                # A hand changed (this player's, or the next player's buttons appeared).
                for player in sim.users:
                    latest = latest_with_buttons(api, player, "T:")
                    if latest is not None and (
                        player.id not in versions or len(latest.versions) != versions[player.id]
                    ):
                        return True
                return message.deleted

            await api.wait_until(shown, timeout=10, what="the press's effect")
        except TimeoutError:
            continue


async def drive_noop_user(api: FakeBotAPI, user: FakeUser, until: float, run: Run) -> None:
    while time.monotonic() < until:
        message = latest_with_buttons(api, user, "n:")
        if message is None:
            await asyncio.sleep(0.01)
            continue
        versions = len(message.versions)
        run.presses.append(time.monotonic())
        query = await api.press(user, user.id, message.message_id, buttons(message, "n:")[0])
        try:
            await api.wait_for_answer(query, timeout=30)
            await api.wait_until(lambda: len(message.versions) > versions, timeout=30, what="the edit")
        except TimeoutError:
            continue


# ----- measurements ---------------------------------------------------------------------------
def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def table_edit_delays(api: FakeBotAPI, run: Run, since: float) -> list[float]:
    """For each press, how long until its group's table message was next edited."""
    delays = []
    edits: dict[int, list[float]] = {}
    for group in set(run.groups):
        times = []
        for message in api.bot_messages(group, include_deleted=True):
            if any(
                (data or "").startswith(("https://t.me/", "P:", "A:")) for row in message.buttons for _, data in row
            ):
                times.extend(message.version_times)
        edits[group] = sorted(time for time in times if time >= since)
    for pressed, group in zip(run.presses, run.groups):
        later = [moment for moment in edits[group] if moment >= pressed]
        if later:
            delays.append(later[0] - pressed)
    return delays


@dataclass
class Figures:
    tables: int
    moves_per_second: float
    answer_p50: float
    answer_p99: float
    # From the getUpdates that handed the press to the bot to its answer: the bot's own share
    # (the rest is the wait for the bot's next poll, and the fake's own time).
    inside_p50: float
    inside_p99: float
    table_p50: float
    table_p99: float
    calls_per_move: float
    group_calls_per_move: float
    busiest_group_minute: int
    busiest_bot_second: int
    flood_429s: int
    updates_per_second: float
    bot_cpu_share: float  # of one core, during the run
    cpu_per_update: float
    noop_updates_per_second: float = 0.0


async def open_tables(api: FakeBotAPI, count: int, seed: int, game: str = "kadi") -> list[Simulation]:
    sims = []
    for index in range(count):
        group = -1001000000000 - index
        sims.append(
            Simulation.create(api, PLAYERS, seed + index, "en", group_id=group, first_user=100_000 + index * 10)
        )
    # A few groups at a time: each opening waits for its own group's answers; only the token's 30
    # calls a second pace them.
    gate = asyncio.Semaphore(OPENING_AT_ONCE)

    async def open_one(sim: Simulation) -> None:
        async with gate:
            await open_in_its_group(api, sim, game)

    await asyncio.gather(*(open_one(sim) for sim in sims))
    await api.settle(quiet=0.2, timeout=OPENING_SECONDS)  # the openings' last sends, before any run
    return sims


async def open_in_its_group(api: FakeBotAPI, sim: Simulation, game: str) -> None:
    """Simulation.open_table's steps (/newgame, each player's join link, Start), each waiting for
    its own group's or player's answer instead of the whole fake's quiet, so that tables in
    different groups open at once (each group has its own 20 a minute; the token's 30 a second
    is what paces them)."""
    await api.send_text(sim.users[0], sim.group_id, f"/newgame {game}")
    lobby = await api.wait_until(sim.table_message, OPENING_SECONDS, "the lobby message")
    join_url = next(data for row in lobby.buttons for _, data in row if (data or "").startswith("https://"))
    for user in sim.users:
        seen = len(api.bot_messages(user.id))
        await api.open_link(user, join_url)
        await api.wait_until(lambda: len(api.bot_messages(user.id)) > seen, OPENING_SECONDS, "the join's answer")
    start = next(data for row in lobby.buttons for _, data in row if (data or "").endswith(":start"))
    query = await api.press(sim.users[0], sim.group_id, lobby.message_id, start)
    answer = await api.wait_for_answer(query, OPENING_SECONDS)
    assert not answer.get("text"), f"the table did not start: {answer['text']}"
    await api.wait_until(lambda: any(sim.hand_message(user) for user in sim.users), OPENING_SECONDS, "the hands")


@asynccontextmanager
async def karata_with_tables(
    tables: int,
    seed: int,
    limits: bool = True,
    game: str = "kadi",
    stores: Stores | None = None,
    at_start: Callable[[asyncio.subprocess.Process], None] | None = None,
    profile: str | None = None,
    **extra_env: str,
):
    """`karata run` as its own process on a fresh database of `stores` (SQLite by default), against
    the fake Bot API (Telegram's limits on both sides, or lifted), with `tables` tables of `game`
    open: (api, process, db_path, sims). `at_start` sees the process at its first poll, before
    any table opens. With `profile`, the bot runs under cProfile and writes its statistics to
    that file when it stops."""
    with tempfile.TemporaryDirectory() as folder:
        db_path = await stores.fresh() if stores is not None else str(Path(folder) / "karata.db")
        async with FakeBotAPI(token=DEMO_TOKEN, flood_limits=limits) as api:
            script = ["-m", "bot.cli", "run"]
            if profile:
                script = ["-m", "cProfile", "-o", profile, *script]
            process = await start_process(script, api, db_path, limits, **extra_env)
            try:
                await wait_for_poll(api)
                if at_start is not None:
                    at_start(process)
                yield api, process, db_path, await open_tables(api, tables, seed, game)
            finally:
                await stop_process(process)


async def karata_under_load(tables: int, seconds: float, seed: int, stores: Stores | None = None) -> Figures:
    async with karata_with_tables(tables, seed, stores=stores) as (api, process, db_path, sims):
        await asyncio.sleep(2)
        before_moves, before = await committed_moves(db_path), api.flood_stats()
        cpu, started = cpu_seconds(process.pid), time.monotonic()
        before_answers = len(api.answer_latency())
        run = Run()
        rng = random.Random(seed)
        until = started + seconds
        with collector_paused():
            await asyncio.gather(
                *(drive_karata_table(api, sim, random.Random(rng.random()), until, run) for sim in sims)
            )
        elapsed, used = time.monotonic() - started, cpu_seconds(process.pid) - cpu
        moves = await committed_moves(db_path) - before_moves
        after = api.flood_stats()
        answers = api.answer_latency()[before_answers:]
        inside = [
            q.answered_at - q.fetched_at
            for q in api.queries.values()
            if q.answered_at is not None and q.fetched_at is not None and q.created_at >= started
        ]
        delays = table_edit_delays(api, run, started)
        groups = {sim.group_id for sim in sims}
        calls = after.delivered - before.delivered
        group_calls = sum(after.delivered_per_chat.get(g, 0) - before.delivered_per_chat.get(g, 0) for g in groups)
        return Figures(
            tables=tables,
            moves_per_second=moves / elapsed,
            answer_p50=percentile(answers, 0.5),
            answer_p99=percentile(answers, 0.99),
            inside_p50=percentile(inside, 0.5),
            inside_p99=percentile(inside, 0.99),
            table_p50=percentile(delays, 0.5),
            table_p99=percentile(delays, 0.99),
            calls_per_move=calls / max(1, moves),
            group_calls_per_move=group_calls / max(1, moves),
            busiest_group_minute=max(after.busiest_minute.values(), default=0),
            busiest_bot_second=after.busiest_second,
            flood_429s=after.violations,
            updates_per_second=len(answers) / elapsed,
            bot_cpu_share=used / elapsed,
            cpu_per_update=used / max(1, len(answers)),
        )


async def noop_under_load(users: int, seconds: float, limits: bool, http: str = "httpx") -> tuple[float, float]:
    """(updates/s, CPU seconds per update) of the no-op bot with `users` pressing at once, making
    its calls with PTB's default client (httpx) or Karata's (aiohttp)."""
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI(token=DEMO_TOKEN, flood_limits=limits) as api:
            process = await start_process(
                ["benchmarks/noop_bot.py"], api, str(Path(folder) / "n.db"), limits, NOOP_HTTP=http
            )
            try:
                await wait_for_poll(api)
                people = [api.add_user(200_000 + n, f"P{n}") for n in range(users)]
                for person in people:
                    await api.user_starts_bot(person)
                await api.wait_until(lambda: all(latest_with_buttons(api, p, "n:") for p in people), 60, "the buttons")
                run = Run()
                cpu, started = cpu_seconds(process.pid), time.monotonic()
                until = started + seconds
                with collector_paused():
                    await asyncio.gather(*(drive_noop_user(api, person, until, run) for person in people))
                elapsed, used = time.monotonic() - started, cpu_seconds(process.pid) - cpu
                return len(run.presses) / elapsed, used / max(1, len(run.presses))
            finally:
                await stop_process(process)


async def karata_cpu_per_move(tables: int, seconds: float, seed: int, stores: Stores | None = None) -> float:
    """CPU seconds of the bot process per committed move, with every limiter lifted."""
    async with karata_with_tables(tables, seed, limits=False, stores=stores) as (api, process, db_path, sims):
        await asyncio.sleep(1)
        moves, cpu, started = await committed_moves(db_path), cpu_seconds(process.pid), time.monotonic()
        run, rng = Run(), random.Random(seed)
        until = started + seconds
        await asyncio.gather(*(drive_karata_table(api, sim, random.Random(rng.random()), until, run) for sim in sims))
        used, moves = cpu_seconds(process.pid) - cpu, await committed_moves(db_path) - moves
        return used / max(1, moves)


# ----- restarts -------------------------------------------------------------------------------
async def build_database(db_path: str, count: int) -> None:
    """`count` running Kadi tables, each dealt and waiting for its first move, with a timer."""
    from engine.core.options import options_dict, parse_options
    from engine.core.serialize import state_to_json
    from engine.kadi import GAME
    from tables.models import PLAYING, Seat, TableRow
    from tables.store import Store

    store = Store(db_path)
    await store.open()
    options = parse_options(GAME.Options, {})
    now = time.time()
    for index in range(count):
        seats = [Seat(300_000 + index * 10 + n, PLAYER_NAMES[n]) for n in range(PLAYERS)]
        table = TableRow(
            0,
            -2_000_000_000 - index,
            0,
            "kadi",
            "lobby",
            seats[0].user_id,
            options_dict(options),
            90,
            seats,
            f"seed{index}",
        )
        table = await store.create_table(table)
        table.status, table.version = PLAYING, 1
        table.state = state_to_json(GAME, GAME.new([seat.player for seat in seats], options, table.seed))
        table.deadline, table.deadline_seconds = now + 90, 90.0
        await store.save_table(table)
        await store.mark_published(table.table_id, table.revision)
    await store.close()


async def restart_time(count: int, stores: Stores | None = None) -> float:
    with tempfile.TemporaryDirectory() as folder:
        db_path = await stores.fresh() if stores is not None else str(Path(folder) / "karata.db")
        await build_database(db_path, count)
        async with FakeBotAPI(token=DEMO_TOKEN) as api:
            started = time.monotonic()
            process = await start_process(["-m", "bot.cli", "run"], api, db_path, limits=True)
            try:
                await wait_for_poll(api, timeout=120)
                return time.monotonic() - started
            finally:
                await stop_process(process)


async def import_time() -> float:
    """How long starting Python and importing the bot takes (part of every restart)."""
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", "import bot.app", cwd=ROOT)
    await process.wait()
    return time.monotonic() - started


# ----- report ---------------------------------------------------------------------------------
def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="1,10,50")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--restart", default="1000,10000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql (a throwaway server) or a postgresql:// URL")
    args = parser.parse_args()
    counts = [int(part) for part in args.tables.split(",") if part]
    with Stores(args.db) as stores:
        print(f"store: {stores.kind}")
        if counts:
            await load_figures(counts, args.seconds, args.seed, stores)
        print(f"\nPython start and imports alone: {await import_time():.2f} s")
        for count in [int(part) for part in args.restart.split(",") if part]:
            took = await restart_time(count, stores)
            print(f"restart with {count} running tables: first poll after {took:.2f} s", flush=True)


async def load_figures(counts: list[int], seconds: float, seed: int, stores: Stores) -> None:
    print(
        "| tables | moves/s | press->answer p50 / p99 | of which in the bot p50 / p99 | press->table p50 / p99 | calls/move (group) "
        "| busiest group minute | busiest bot second | 429s | updates/s vs no-op | bot CPU (per update) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for count in counts:
        figures = await karata_under_load(count, seconds, seed, stores)
        noop, _ = await noop_under_load(count, seconds, limits=True)
        print(
            f"| {count} | {figures.moves_per_second:.1f} | {ms(figures.answer_p50)} / {ms(figures.answer_p99)} "
            f"| {ms(figures.inside_p50)} / {ms(figures.inside_p99)} "
            f"| {figures.table_p50:.1f} s / {figures.table_p99:.1f} s "
            f"| {figures.calls_per_move:.2f} ({figures.group_calls_per_move:.2f}) "
            f"| {figures.busiest_group_minute} | {figures.busiest_bot_second} | {figures.flood_429s} "
            f"| {figures.updates_per_second:.1f} vs {noop:.1f} ({figures.updates_per_second / noop:.2f}x) "
            f"| {figures.bot_cpu_share:.0%} of a core ({ms(figures.cpu_per_update)}) |",
            flush=True,
        )
    busiest = max(counts)
    karata_cpu = await karata_cpu_per_move(busiest, seconds, seed, stores)
    _, noop_cpu = await noop_under_load(busiest, seconds, limits=False)
    _, noop_aiohttp_cpu = await noop_under_load(busiest, seconds, limits=False, http="aiohttp")
    print(
        f"\nCPU per move, limits lifted, {busiest} tables: Karata {ms(karata_cpu)}, no-op {ms(noop_cpu)} "
        f"({karata_cpu / noop_cpu:.1f}x); no-op with Karata's HTTP client (aiohttp) {ms(noop_aiohttp_cpu)} "
        f"({karata_cpu / noop_aiohttp_cpu:.1f}x)",
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main())
