"""The `karata` command: `karata run` starts the bot, `karata demo [GAME]` plays offline,
`karata arena GAME` pits kinds of computer players against each other.

Plain `karata` runs the bot when BOT_TOKEN is set; otherwise it explains how to get a token
and runs the demo, so a fresh install always shows something.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from bot.settings import SettingsError, load_settings, settings_help

NO_TOKEN_HELP = """\
BOT_TOKEN is not set, so here is the offline demo instead.
To run Karata for real:
  1. In Telegram, talk to @BotFather, send /newbot, and copy the token it gives you.
  2. export BOT_TOKEN='123456:ABC...'   (never commit it or paste it in a chat)
  3. karata run
"""


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
    demo = commands.add_parser("demo", help="play a game offline against a fake Telegram, with random players")
    demo.add_argument("game", nargs="?", default="kadi", help="lopti, kadi, pitch, euchre3 or three_thirteen")
    demo.add_argument("--players", type=int, default=3, help="how many simulated players (default 3)")
    demo.add_argument("--seed", type=int, default=1, help="seed for the players' choices")
    demo.add_argument("--language", choices=("sw", "en"), default="en", help="language of the demo chats")
    arena = commands.add_parser("arena", help="play whole matches between kinds of computer players, offline")
    arena.add_argument("game", help="lopti, kadi, pitch, euchre3 or three_thirteen")
    arena.add_argument("--seats", default="strong,random", help="a kind per seat: strong, easy or random")
    arena.add_argument("--matches", type=int, default=20, help="how many matches (seats rotate each match)")
    arena.add_argument("--seed", type=int, default=1, help="seed of the first match's deal")
    arena.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    return parser


def _arena(args: argparse.Namespace) -> int:
    import json
    import time

    from engine.ai.arena import format_report, run_arena
    from engine.registry import UnknownGame

    try:
        seats = [kind.strip() for kind in args.seats.split(",")]
        report = run_arena(args.game, seats, args.matches, args.seed, time.process_time)
    except (ValueError, UnknownGame) as error:
        print(f"karata arena: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_report(report))
    return 0


def _backup_or_restore(command: str, file: str) -> int:
    """Needs only KARATA_DB (default karata.db): no token, no Telegram."""
    from bot.backup import backup, restore
    from bot.settings import Settings, env_name

    db_path = os.environ.get(env_name("db_path")) or str(Settings.model_fields["db_path"].default)
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


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command
    if command is None:
        if os.environ.get("BOT_TOKEN"):
            command = "run"
        else:
            print(NO_TOKEN_HELP)
            args = _parser().parse_args(["demo"])
            command = "demo"
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

        setup_logging(settings.log_level, settings.token, settings.log_format)
        try:
            run(settings)
        except DatabaseInUse as error:
            print(error, file=sys.stderr)
            return 2
        except InvalidToken:
            # Telegram's message quotes the token: say what to do instead, and nothing more.
            print("karata: Telegram refused BOT_TOKEN; get a valid one from @BotFather", file=sys.stderr)
            return 2
        return 0
    if command == "arena":
        return _arena(args)
    if command in ("backup", "restore"):
        return _backup_or_restore(command, args.file)
    from bot.demo import run_demo

    return run_demo(args.game, args.players, args.seed, args.language)


if __name__ == "__main__":
    sys.exit(main())
