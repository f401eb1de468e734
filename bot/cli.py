"""The `karata` command: `karata run` starts the bot, `karata demo [GAME]` plays offline,
`karata arena GAME` pits kinds of computer players against each other, `karata replay FILE`
plays a replay file (as `python -m engine.replay FILE`), `karata copy-db SOURCE TARGET` moves an
SQLite database into PostgreSQL.

Plain `karata` runs the bot when BOT_TOKEN is set; otherwise it explains how to get a token
and runs the demo, so a fresh install always shows something.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Sequence

from bot.settings import Settings, SettingsError, load_settings, settings_help

NO_TOKEN_HELP = "BOT_TOKEN is not set, so here is the offline demo instead (these steps follow it again)."
TOKEN_STEPS = """\
To run Karata for real:
  1. In Telegram, talk to @BotFather, send /newbot, and copy the token it gives you.
  2. export BOT_TOKEN='123456:ABC...'   (never commit it or paste it in a chat)
  3. karata run
The demo: `karata demo [GAME]` (Swahili by default; `--language en` for English,
`--verbose` for every message, `karata demo --help` for the rest).
"""
# The demo speaks the bot's own default language (a new group's language).
DEMO_LANGUAGE = Settings.model_fields["group_language"].default
GAMES = "lopti, kadi, pitch, euchre3 or three_thirteen"
# What backs up and restores a PostgreSQL database instead of `karata backup` and `karata restore`.
POSTGRES_TOOLS = {"backup": "pg_dump --format=custom", "restore": "pg_restore --clean --if-exists"}


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="karata",
        description="Karata: card games in Telegram groups.",
        epilog=settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="start the bot (needs BOT_TOKEN)")
    backup = commands.add_parser("backup", help="copy the database (KARATA_DB) to FILE, also while the bot runs")
    backup.add_argument("file", help="where the copy goes (replaced if it exists)")
    restore = commands.add_parser("restore", help="put a backup in the database's place (the bot must be stopped)")
    restore.add_argument("file", help="a file `karata backup` made")
    copy = commands.add_parser(
        "copy-db", help="copy a database (an SQLite file) into a new PostgreSQL one, and check the counts",
        description="Copy every table of SOURCE into TARGET in one transaction, then compare each table's count "
        "of rows. Stop the bot first; TARGET must hold no tables yet. Then set KARATA_DB=TARGET.",
    )  # fmt: skip
    copy.add_argument("source", help="the database to copy: an SQLite file (or a postgresql:// URL)")
    copy.add_argument("target", help="where it goes: a postgresql://user:password@host/database URL (or a file)")
    defaults = argparse.ArgumentDefaultsHelpFormatter
    demo = commands.add_parser(
        "demo", formatter_class=defaults, help="play a game offline against a fake Telegram, with random players",
        description="Play one round offline: the real bot against a fake Telegram, with simulated players "
        "pressing random buttons. Prints what the chats show when the game starts and what the group shows "
        "when the first round is over (--verbose: every message, as it changes).",
    )  # fmt: skip
    demo.add_argument("game", nargs="?", default="kadi", help=GAMES)
    demo.add_argument("--players", type=_at_least_one, default=3, help="how many simulated players")
    demo.add_argument("--seed", type=int, default=1, help="seed of the deal and of the players' choices")
    demo.add_argument("--language", choices=("sw", "en"), default=DEMO_LANGUAGE, help="language of the demo chats")
    demo.add_argument("--verbose", action="store_true", help="print every version of every message")
    demo.add_argument("--webapp", type=int, nargs="?", const=1, default=0, metavar="SEATS",
                      help="serve the Mini App on 127.0.0.1 and print a link to play SEATS seats (default 1) "
                           "in a browser against computer players, until Ctrl-C")
    arena = commands.add_parser(
        "arena", formatter_class=defaults, help="play whole matches between kinds of computer players, offline"
    )
    arena.add_argument("game", help=GAMES)
    arena.add_argument("--seats", default="strong,random", help="a kind per seat: strong, easy or random")
    arena.add_argument("--matches", type=_at_least_one, default=20, help="how many matches (seats rotate each match)")
    arena.add_argument("--seed", type=int, default=1, help="seed of the first match's deal")
    arena.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    from engine.replay import DESCRIPTION

    replay = commands.add_parser(
        "replay", help="play a replay file and print the outcome as JSON",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    replay.add_argument("file", help="a replay file (/history sends them; examples: tests/<game>/replays/)")
    return parser


def _arena(args: argparse.Namespace) -> int:
    import json
    import time

    from bot.progress import progress_bar
    from engine.ai.arena import format_report, run_arena
    from engine.registry import available_games

    if args.game not in available_games():
        print(f"karata arena: unknown game {args.game}; games: {', '.join(available_games())}", file=sys.stderr)
        return 2
    try:
        seats = [kind.strip() for kind in args.seats.split(",")]
        with progress_bar(args.matches, f"{args.game} arena", "matches") as bar:
            report = run_arena(args.game, seats, args.matches, args.seed, time.process_time, lambda _done: bar.update())
    except ValueError as error:
        print(f"karata arena: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def _backup_or_restore(command: str, file: str) -> int:
    """Needs only KARATA_DB (default karata.db): no token, no Telegram."""
    from bot.backup import backup, restore
    from bot.settings import Settings, env_name
    from tables.database import is_postgresql

    db_path = os.environ.get(env_name("db_path")) or str(Settings.model_fields["db_path"].default)
    if is_postgresql(db_path):
        print(f"karata: KARATA_DB is a PostgreSQL database: {command} it with {POSTGRES_TOOLS[command]} "
              "(docs/OPERATIONS.md, \"PostgreSQL\")", file=sys.stderr)  # fmt: skip
        return 2
    try:
        if command == "backup":
            size = backup(db_path, file)
            print(f"karata: backed up {db_path} to {file} ({size} bytes)")
        else:
            kept = restore(file, db_path)
            print(f"karata: restored {db_path} from {file}" + (f"; the database it replaced is {kept}" if kept else ""))
    except SystemExit as error:  # DatabaseInUse, BadBackup: one line each
        print(error, file=sys.stderr)
        return 2
    return 0


def _copy_db(source: str, target: str) -> int:
    """`karata copy-db`: the source is locked like a running bot's (a bot still writing to it
    would be copied half-way)."""
    import asyncio

    from asyncpg import PostgresError

    from bot.backup import DatabaseInUse, DatabaseLock
    from tables.database import is_postgresql, shown_target
    from tables.transfer import CopyProblem, copy_database

    lock = DatabaseLock(source) if not is_postgresql(source) else None
    try:
        if lock is not None:
            if not os.path.exists(source):
                print(f"karata: there is no database at {source}", file=sys.stderr)
                return 2
            lock.acquire("stop the bot before copying its database")
        copied = asyncio.run(copy_database(source, target))
    except (DatabaseInUse, CopyProblem, PostgresError, sqlite3.Error, OSError) as error:
        print(f"karata: copy-db: {error}", file=sys.stderr)
        return 2
    finally:
        if lock is not None:
            lock.release()
    rows = ", ".join(f"{table} {count}" for table, count in copied.items())
    print(f"karata: copied {source} into {shown_target(target)}; the counts match ({rows})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command
    if command is None:
        if os.environ.get("BOT_TOKEN"):
            command = "run"
        else:
            from bot.demo import run_demo

            print(NO_TOKEN_HELP)
            print(TOKEN_STEPS)
            demo = _parser().parse_args(["demo"])
            code = run_demo(demo.game, demo.players, demo.seed, demo.language, demo.verbose)
            print()
            print(TOKEN_STEPS, end="")
            return code
    if command == "run":
        try:
            settings = load_settings()
        except SettingsError as error:
            print(error, file=sys.stderr)
            return 2
        from telegram.error import InvalidToken

        from bot.backup import DatabaseInUse
        from bot.runner import run
        from bot.logs import setup_logging
        from asyncpg import PostgresError

        from tables.database import shown_target
        from tables.db_check import DatabaseProblem, check_database

        try:
            # Before anything waits for Telegram: a database the bot cannot use stops it here.
            check_database(settings.db_path)
        except DatabaseProblem as problem:
            print(problem, file=sys.stderr)
            return 2
        setup_logging(settings.log_level, settings.token, settings.log_format)
        try:
            run(settings)
        except DatabaseInUse as error:
            print(error, file=sys.stderr)
            return 2
        except (sqlite3.Error, PostgresError, OSError) as error:
            # What the start-up check could not see (a damaged page found while migrating, a
            # PostgreSQL server that refuses or does not answer).
            print(f"karata: the database {shown_target(settings.db_path)} failed at start-up: {error}", file=sys.stderr)
            return 2
        except InvalidToken:
            # Telegram's message quotes the token: say what to do instead, and nothing more.
            print("karata: Telegram refused BOT_TOKEN; get a valid one from @BotFather", file=sys.stderr)
            return 2
        return 0
    if command == "arena":
        return _arena(args)
    if command == "replay":
        from engine.replay import main as replay

        return replay([args.file])
    if command in ("backup", "restore"):
        return _backup_or_restore(command, args.file)
    if command == "copy-db":
        return _copy_db(args.source, args.target)
    if args.webapp:
        from bot.demo_webapp import run_webapp_demo

        return run_webapp_demo(args.game, args.players, args.seed, args.language, args.webapp)
    from bot.demo import run_demo

    return run_demo(args.game, args.players, args.seed, args.language, args.verbose)


if __name__ == "__main__":
    sys.exit(main())
