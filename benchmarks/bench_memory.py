"""Memory per open table: what rendering keeps of the tables it draws, after 20,000 moves a game.

What it does, in one process per game (a fresh interpreter, so one game's memory does not hide
another's): keeps TABLES tables of that game open, 3 players each, and makes MOVES random moves
among them (a finished table is replaced by a new one, so TABLES stay open). After each move it
draws what the publisher draws (handlers/delivery/screens.py: the group's table and each player's
hand, through the seat's screen), and with --app each player's Mini App snapshot too (three
pages open per table). Each move loads its table's state from JSON and stores it back, as the
table service does with the database. Then it prints the process's resident memory above the
same process idle (everything imported and drawn once, nothing kept: an idle bot's own), per
open table; how much of it the table rows themselves are (in a bot they live in SQLite's pages);
and what the seats' screens kept (handlers/presentation/render/seat.py) hold, walked object by object.

It measures what rendering keeps, the part of a bot's memory that grows with its tables
(`_SEEN` kept 4,096 renders, about 14.7 KB each for Lopti, whatever was live); the publisher's
own record of each table (what each message shows, a few hundred bytes) and the sockets'
buffers are not in it. Goals (docs/PERFORMANCE.md): under 64 KB per open chat table, under 128 KB
per open table with three app pages.

Run: python benchmarks/bench_memory.py [--tables 100] [--moves 20000] [--app] [--game kadi]
"""

from __future__ import annotations

import argparse
import gc
import random
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def deep_size(root: object) -> int:
    """The bytes of `root` and of everything it holds (classes, modules and functions aside)."""
    seen, todo, total = set(), [root], 0
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType)):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        todo.extend(gc.get_referents(item))
    return total


def one_game(game_name: str, tables: int, moves: int, app: bool, seed: int) -> str:
    from engine.core.serialize import state_from_json, state_to_json
    from engine.registry import get_game
    from handlers.delivery.screens import Readers, table_screens
    from handlers.i18n import translator
    from handlers.presentation.render import seat
    from handlers.webapp.snapshot import snapshot
    from tables.models import FINISHED, PLAYING, Loaded, Seat, TableRow

    game = get_game(game_name)
    rng = random.Random(seed)
    english = translator("en")
    readers = Readers(english, {}, "karata_bot", "https://karata.example/app/" if app else None)
    ids = iter(range(1, 10**9))

    def new_table() -> TableRow:
        table_id = next(ids)
        seats = [Seat(1000 + 3 * table_id + index, f"P{index}") for index in range(3)]
        row = TableRow(
            table_id, -table_id, 0, game_name, PLAYING, seats[0].user_id, {}, 90, seats, str(table_id), version=1
        )
        row.state = state_to_json(game, game.new(row.players, game.Options(), str(table_id)))
        return row

    def draw(row: TableRow, state: object) -> None:
        table_screens(Loaded(row, game, state), readers, 0.0)
        if app:
            for player in row.players:
                snapshot(row, game, state, player, english, 0.0)

    # Idle: everything imported and every path drawn once (catalogs, engines' tables), nothing kept.
    warm = new_table()
    draw(warm, state_from_json(game, warm.state))
    english.list(["a", "b"])  # babel loads a language's data (3 MB) at its first list, once for good
    seat.forget(warm.table_id)
    gc.collect()
    idle = rss_kb()
    # The open tables as the database holds them (a row, its state as JSON); each move loads one.
    rows = [new_table() for _ in range(tables)]
    for row in rows:
        draw(row, state_from_json(game, row.state))
    for _move in range(moves):
        index = rng.randrange(tables)
        row = rows[index]
        state = state_from_json(game, row.state)
        acting = [player for player in game.to_act(state) if game.legal_actions(state, player)]
        state = game.advance(state, acting[0], rng.choice(game.legal_actions(state, acting[0]))).state
        row.version += 1
        row.state = state_to_json(game, state)
        if game.is_finished(state):
            row.status = FINISHED
            draw(row, state)  # the last render of a finished table: its screens go
            row = rows[index] = new_table()
            state = state_from_json(game, row.state)
        draw(row, state)
    gc.collect()
    above = rss_kb() - idle
    kept = deep_size(seat._LIVE)
    rows_size = deep_size(rows)
    mode = "chat + 3 app pages" if app else "chat"
    return (
        f"| {game_name} | {mode} | {tables} | {moves} | {above / 1024:.1f} MB | {above / tables:.0f} KB | "
        f"{rows_size / 1024 / tables:.1f} KB | {kept / 1024 / tables:.1f} KB | {seat.kept_tables()} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--app", action="store_true", help="three app pages per table (one game only)")
    parser.add_argument("--game", help="one game in this process (the others: one process each)")
    args = parser.parse_args()
    if args.game:
        print(one_game(args.game, args.tables, args.moves, args.app, args.seed))
        return
    from engine.registry import available_games

    print(
        "| game | drawn for | open tables | moves | RSS above idle | per open table | of which the rows (the database's) | seats' screens kept per table | tables kept |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game in available_games():
        for app in (False, True):
            command = [
                sys.executable,
                __file__,
                "--game",
                game,
                "--tables",
                str(args.tables),
                "--moves",
                str(args.moves),
                "--seed",
                str(args.seed),
                *(["--app"] if app else []),
            ]
            print(subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
