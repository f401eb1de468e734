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

from bot.settings import SettingsError, load_settings

NO_TOKEN_HELP = """\
BOT_TOKEN is not set, so here is the offline demo instead.
To run Karata for real:
  1. In Telegram, talk to @BotFather, send /newbot, and copy the token it gives you.
  2. export BOT_TOKEN='123456:ABC...'   (never commit it or paste it in a chat)
  3. karata run
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="karata", description="Karata: card games in Telegram groups.")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="start the bot (needs BOT_TOKEN)")
    demo = commands.add_parser("demo", help="play a game offline against a fake Telegram, with random players")
    demo.add_argument("game", nargs="?", default="kadi", help="lopti, kadi, pitch, euchre3 or three_thirteen")
    demo.add_argument("--players", type=int, default=3, help="how many simulated players (default 3)")
    demo.add_argument("--seed", type=int, default=1, help="seed for the players' choices")
    demo.add_argument("--language", choices=("sw", "en"), default="en", help="language of the demo chats")
    demo.add_argument("--webapp", type=int, nargs="?", const=1, default=0, metavar="SEATS",
                      help="serve the Mini App on 127.0.0.1 and print a link to play SEATS seats (default 1) "
                           "in a browser against computer players, until Ctrl-C")
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

        from bot.runner import run
        from bot.logs import setup_logging

        setup_logging(settings.log_level, settings.token)
        try:
            run(settings)
        except InvalidToken:
            # Telegram's message quotes the token: say what to do instead, and nothing more.
            print("karata: Telegram refused BOT_TOKEN; get a valid one from @BotFather", file=sys.stderr)
            return 2
        return 0
    if command == "arena":
        return _arena(args)
    if args.webapp:
        from bot.demo_webapp import run_webapp_demo

        return run_webapp_demo(args.game, args.players, args.seed, args.language, args.webapp)
    from bot.demo import run_demo

    return run_demo(args.game, args.players, args.seed, args.language)


if __name__ == "__main__":
    sys.exit(main())
