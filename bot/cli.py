"""The `karata` command: `karata run` starts the bot, `karata demo [GAME]` plays offline,
`karata arena GAME` pits kinds of computer players against each other, `karata replay FILE`
plays a replay file (as `python -m engine.replay FILE`), `karata copy-db SOURCE TARGET` moves an
SQLite database into PostgreSQL.

Plain `karata` runs the bot when BOT_TOKEN is set; otherwise it explains how to get a token
and runs the demo, so a fresh install always shows something.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sqlite3
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from bot.settings import Settings, SettingsError, load_settings, settings_help
from engine.registry import GAME_MODULES

NO_TOKEN_HELP = "BOT_TOKEN is not set, so here is the offline demo instead (these steps follow it again)."
TOKEN_STEPS = """\
To run Karata for real:
  1. In Telegram, talk to @BotFather, send /newbot, and copy the token it gives you.
  2. export BOT_TOKEN='123456:ABC...'   (never commit it or paste it in a chat)
  3. karata run
The demo: `karata demo [GAME]` (Swahili by default; `--language en` for English,
`--verbose` for every message, `karata demo --help` for the rest).
"""
# The arena's default size: Lopti's matches (five rounds of searching players) take about ten
# seconds of a core each, so its default keeps a run to about a minute (docs/DECISIONS.md).
ARENA_MATCHES = 20
LOPTI_ARENA_MATCHES = 6
# The demo speaks the bot's own default language (a new group's language).
DEMO_LANGUAGE = Settings.model_fields["group_language"].default
# What backs up and restores a PostgreSQL database instead of `karata backup` and `karata restore`.
POSTGRES_TOOLS = {"backup": "pg_dump --format=custom", "restore": "pg_restore --clean --if-exists"}


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _at_least_one(text: str) -> int:
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


# argparse's own wordings, said as the rest of the command line says things.
_ARGPARSE_WORDS = (
    (
        re.compile(r"^argument command: invalid choice: '([^']*)' \(choose from (.*)\)$"),
        lambda found: f"unknown command {found[1]!r}; commands: {found[2].replace(chr(39), '')}",
    ),
    (
        re.compile(r"^argument ([^:]+): invalid choice: '([^']*)' \(choose from (.*)\)$"),
        lambda found: f"{found[1]}: {found[2]!r} is not one of {found[3].replace(chr(39), '')}",
    ),
    (
        re.compile(r"^argument ([^:]+): invalid \w+ value: '([^']*)'$"),
        lambda found: f"{found[1]}: {found[2]!r} is not a whole number",
    ),
    (re.compile(r"^argument ([^:]+): expected one argument$"), lambda found: f"{found[1]} needs a value"),
    (re.compile(r"^the following arguments are required: (.*)$"), lambda found: f"missing {found[1].upper()}"),
    (re.compile(r"^unrecognized arguments: (.*)$"), lambda found: f"unknown option or argument {found[1]}"),
    (re.compile(r"^argument ([^:]+): (.*)$"), lambda found: f"{found[1]}: {found[2]}"),
)


class _Parser(argparse.ArgumentParser):
    """Refuses a command line in one line, `karata <command>: <what is wrong> (…--help)`, without
    argparse's usage block or wording."""

    def error(self, message: str) -> NoReturn:
        for pattern, said in _ARGPARSE_WORDS:
            found = pattern.match(message)
            if found:
                message = said(found)
                break
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def fail(command: str | None, error: object) -> int:
    """Print one error line as `karata <command>: …` (a message's own «karata:» prefix is
    replaced) and return the exit status 2."""
    text = _plain(error)
    print(f"karata {command}: {text}" if command else f"karata: {text}", file=sys.stderr)
    return 2


def _plain(error: object) -> str:
    """An error's text without its own «karata:» or «karata <command>:» prefix."""
    return re.sub(r"^karata( \w+)?: ", "", str(error).strip())


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="karata",
        description="Karata: card games in Telegram groups.",
        epilog=settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    games = ", ".join(GAME_MODULES)  # the registry's names, in menu order
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
    demo.add_argument("game", nargs="?", default="kadi", help=games)
    demo.add_argument("--players", type=_at_least_one, default=3, help="how many simulated players")
    demo.add_argument("--seed", type=_whole_number, default=1, help="seed of the deal and of the players' choices")
    demo.add_argument("--language", choices=("sw", "en"), default=DEMO_LANGUAGE, help="language of the demo chats")
    demo.add_argument("--verbose", action="store_true", help="print every version of every message")
    demo.add_argument(
        "--webapp",
        type=_at_least_one,
        nargs="?",
        const=1,
        default=0,
        metavar="SEATS",
        help="serve the Mini App on 127.0.0.1 and print a link to play SEATS seats (default 1) "
        "in a browser against computer players, until Ctrl-C",
    )
    arena = commands.add_parser(
        "arena", formatter_class=defaults, help="play whole matches between kinds of computer players, offline"
    )
    arena.add_argument("game", help=games)
    arena.add_argument("--seats", default="strong,random", help="a kind per seat: strong, easy or random")
    arena.add_argument(
        "--matches",
        type=_at_least_one,
        default=argparse.SUPPRESS,
        help=f"how many matches (seats rotate each match) (default: {ARENA_MATCHES}; "
        f"Lopti: {LOPTI_ARENA_MATCHES}, whose matches take seconds each)",
    )
    arena.add_argument("--seed", type=_whole_number, default=1, help="seed of the first match's deal")
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
        return fail("arena", f"unknown game {args.game}; games: {', '.join(available_games())}")
    seats = [kind.strip() for kind in args.seats.split(",")]
    problem = arena_seats_problem(args.game, seats)
    if problem:
        return fail("arena", problem)
    matches = getattr(args, "matches", LOPTI_ARENA_MATCHES if args.game == "lopti" else ARENA_MATCHES)
    try:
        with progress_bar(matches, f"{args.game} arena", "matches") as bar:
            played = _arena_progress(args.game, matches, bar, sys.stderr)
            report = run_arena(args.game, seats, matches, args.seed, time.process_time, played)
    except ValueError as error:
        return fail("arena", error)
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def _arena_progress(game: str, matches: int, bar, stream) -> Callable[[int], None]:
    """After each match: the bar on a terminal; piped, a line (a run of minutes shows it lives)."""
    import time

    piped = not stream.isatty()
    started = time.monotonic()

    def played(count: int) -> None:
        bar.update()
        if piped:
            seconds = round(time.monotonic() - started)
            print(f"{game} arena: match {count} of {matches} played ({seconds} s)", file=stream, flush=True)

    return played


def arena_seats_problem(game_name: str, seats: Sequence[str]) -> str | None:
    """Why the arena cannot seat these kinds at this game, saying how to name the seats, or None."""
    from engine.ai import LEVELS
    from engine.ai.arena import arena_options
    from engine.registry import get_game

    unknown = [kind for kind in seats if kind not in LEVELS]
    if unknown:
        return f"--seats: unknown seat kind {unknown[0]!r}; a seat is one of {', '.join(LEVELS)}"
    game = get_game(game_name)
    low, high = game.player_range(arena_options(game))
    if low <= len(seats) <= high:
        return None
    count = f"exactly {low}" if low == high else f"{low} to {high}"
    example = ",".join((["strong", "easy", "random"] * 3)[:low])
    return (
        f"{game_name} needs {count} seats, and --seats names {len(seats)} ({','.join(seats)}): "
        f"name a kind per seat, e.g. --seats {example}"
    )


def _backup_or_restore(command: str, file: str) -> int:
    """Needs only KARATA_DB (default karata.db): no token, no Telegram."""
    from bot.backup import backup, restore
    from bot.settings import Settings, env_name
    from tables.database import is_postgresql

    db_path = os.environ.get(env_name("db_path")) or str(Settings.model_fields["db_path"].default)
    if is_postgresql(db_path):
        return fail(command, f"KARATA_DB is a PostgreSQL database: {command} it with {POSTGRES_TOOLS[command]} "
                             "(docs/OPERATIONS.md, \"PostgreSQL\")")  # fmt: skip
    try:
        if command == "backup":
            size = backup(db_path, file)
            print(f"karata: backed up {db_path} to {file} ({size} bytes)")
        else:
            kept = restore(file, db_path)
            print(f"karata: restored {db_path} from {file}" + (f"; the database it replaced is {kept}" if kept else ""))
    except SystemExit as error:  # DatabaseInUse, BadBackup: one line each
        return fail(command, error)
    return 0


def _run() -> int:
    """`karata run`: each way it cannot start or go on ends with one line `karata run: …`
    (JSON with KARATA_LOG_FORMAT=json, like every other line) and status 2."""
    from bot.logs import requested_format, setup_logging, stop_line

    def stop(error: object) -> int:
        stop_line(f"karata run: {_plain(error)}", log_format)
        return 2

    log_format = requested_format()
    setup_logging("INFO", "", log_format)
    try:
        settings = load_settings()
    except SettingsError as error:
        stop(error)
        if not os.environ.get("BOT_TOKEN") and log_format == "text":  # for a person at a terminal
            print(TOKEN_STEPS, end="", file=sys.stderr)
        return 2
    log_format = settings.log_format
    setup_logging(settings.log_level, settings.token, log_format)
    from asyncpg import PostgresError
    from telegram.error import InvalidToken

    from bot.backup import DatabaseInUse
    from bot.runner import TokenRefused, run
    from bot.web import CannotListen
    from tables.database import shown_target
    from tables.db_check import DatabaseProblem, check_database

    try:
        # Before anything waits for Telegram: a database the bot cannot use stops it here.
        check_database(settings.db_path)
        run(settings)
    except (DatabaseProblem, DatabaseInUse, CannotListen, TokenRefused) as error:
        return stop(error)
    except (sqlite3.Error, PostgresError, OSError) as error:
        # What the start-up check could not see (a damaged page found while migrating, a
        # PostgreSQL server that refuses or does not answer).
        return stop(f"the database {shown_target(settings.db_path)} failed at start-up: {error}")
    except InvalidToken:
        # Telegram's message quotes the token: say what to do instead, and nothing more.
        return stop("Telegram refused BOT_TOKEN; get a valid one from @BotFather")
    except Exception:  # a bug: its traceback in the log's format, not bare on stderr
        logging.getLogger("karata").exception("karata run: stopped by an unexpected error")
        return 1
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
                return fail("copy-db", f"there is no database at {source}")
            lock.acquire("stop the bot before copying its database")
        copied = asyncio.run(copy_database(source, target))
    except (DatabaseInUse, CopyProblem, PostgresError, sqlite3.Error, OSError) as error:
        return fail("copy-db", error)
    finally:
        if lock is not None:
            lock.release()
    rows = ", ".join(f"{table} {count}" for table, count in copied.items())
    print(f"karata copy-db: copied {source} into {shown_target(target)}; the counts match ({rows})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the command it was given to
        command = f"karata {args.command}" if args.command else "karata"
        parser.exit(2, f"{command}: unknown option or argument {' '.join(unknown)} (see {command} --help)\n")
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
        return _run()
    if command == "arena":
        return _arena(args)
    if command == "replay":
        from engine.replay import main as replay

        return replay([args.file], prefix="karata replay: ")
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
