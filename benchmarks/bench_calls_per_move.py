"""Telegram calls per move, per game and per kind of move, on whole matches with the flood limits enforced.

What it does: for each game, the real bot (in this process) against the fake Bot API with
Telegram's limits enforced (a 429 beyond 20 counted calls per group in any sliding minute, or 30
bot-wide in any sliding second; the bot runs with the real rates, KARATA_GROUP_RATE=20 and
KARATA_BOT_RATE=30) plays whole matches: simulated players tap the buttons of one legal move at
a time, chosen at random (tests/e2e/helpers.py's `sensible_player`: it goes out when it can, so
that Three Thirteen and Lopti end), and press as soon as their own private chat shows the last
move, as people do. Every Bot API call between one move's first tap and the next move's first
tap is counted for that move, by method and by chat kind (group or private); answers to presses
(answerCallbackQuery) are counted apart. A move's kind is its action's type, and for Kadi's plays
whether it was one card, several, or a Jack with its command. A kind over 3 calls a move also
prints where its calls go, by method. `--fast` is the issue's pace (limits enforced); without it,
every move is shown everywhere before the next (limits lifted: the worst case for the budget).

Group calls come late (the group's table waits for its flood budget, and the courier then sends
only its newest content), so per kind of move they are indicative; per game they are exact.

Run: python benchmarks/bench_calls_per_move.py [--games kadi,pitch] [--matches 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.demo import Simulation, demo_settings  # noqa: E402
from bot.runner import running_application  # noqa: E402
from fakeapi import FakeBotAPI  # noqa: E402
from fakeapi.flood import COUNTED_METHODS  # noqa: E402
from tests.e2e.helpers import SHORT_MATCHES, sensible_player  # noqa: E402

ANSWER = "answercallbackquery"


def move_kind(game: str, action: dict) -> str:
    kind = action["type"]
    if game == "kadi" and kind == "play":
        if "command" in action:
            return "play Jack"
        return "play 1 card" if len(action["cards"]) == 1 else "play several"
    if kind == "play" and len(action.get("cards") or []) > 1:
        return "play several"
    return kind


def over(loaded) -> bool:
    if loaded.table.status != "playing":
        return True
    return loaded.game.name == "lopti" and loaded.game.round_number(loaded.state) >= 2


class Tally:
    def __init__(self) -> None:
        self.moves: Counter[str] = Counter()
        self.calls: dict[str, Counter[str]] = defaultdict(Counter)  # kind -> "group"/"private"/"answer" -> calls
        self.methods: dict[str, Counter[str]] = defaultdict(Counter)  # kind -> method -> calls

    def count(self, kind: str, calls: list[tuple[str, dict]], group_id: int) -> None:
        for method, params in calls:
            name = method.lower()
            if name == ANSWER:
                self.calls[kind]["answer"] += 1
                continue
            if name not in COUNTED_METHODS:
                continue
            chat = "group" if int(params.get("chat_id", 0)) == group_id else "private"
            self.calls[kind][chat] += 1
            self.methods[kind][f"{method} ({chat})"] += 1


async def play_match(game: str, seed: int, tally: Tally, fast: bool) -> None:
    players, options = SHORT_MATCHES[game]
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI() as api:
            sim = Simulation.create(api, players, seed)
            choose = sensible_player(random.Random(seed))
            chosen: list[str] = []

            def recording(player, actions, loaded):
                action = choose(player, actions, loaded)
                if action is not None:
                    chosen.append(move_kind(game, action))
                return action

            sim.choose = recording
            api.flood_control.enforce = fast
            rates = {"KARATA_GROUP_RATE": 20, "KARATA_BOT_RATE": 30} if fast else {}
            settings = demo_settings(api, str(Path(folder) / "bench.db"), KARATA_ROUND_PAUSE_SECONDS=1, **rates)
            async with running_application(settings) as application:
                karata = application.bot_data["karata"]
                publisher = karata.publisher
                api.after_answer = lambda: publisher.settle(private_only=True)
                await api.settle(quiet=0.05)
                sim.application, sim.private_only = application, fast
                await sim.open_table(game, options)
                table = await karata.store.live_table(sim.group_id, 0)
                await publisher.settle()
                since = mark = len(api.calls)
                kind = None
                for _step in range(5000):
                    loaded = await karata.service.load(table.table_id)
                    if over(loaded):
                        break
                    if karata.service.paused(loaded.table):
                        await asyncio.sleep(0.05)
                        continue
                    before = len(chosen)
                    await sim.step()
                    if len(chosen) > before:
                        if kind is not None:
                            tally.count(kind, api.calls[since:mark], sim.group_id)
                            since = mark
                        kind = chosen[-1]
                        tally.moves[kind] += 1
                    mark = len(api.calls)
                await publisher.settle(timeout=120)
                if kind is not None:
                    tally.count(kind, api.calls[since:], sim.group_id)
                stats = api.flood_stats()
                assert stats.violations == 0, f"{game}: {stats.violations} calls Telegram would refuse"
                api.after_answer = None


def report(game: str, tally: Tally) -> None:
    moves = sum(tally.moves.values())
    total: Counter[str] = Counter()
    for counts in tally.calls.values():
        total.update(counts)
    calls = total["group"] + total["private"]
    print(
        f"\n## {game}: {moves} moves, {calls / moves:.2f} calls per move "
        f"({total['group'] / moves:.2f} group, {total['private'] / moves:.2f} private), "
        f"{(calls + total['answer']) / moves:.2f} with answers"
    )
    print("| move | moves | calls/move | group | private | answers |")
    print("|---|---|---|---|---|---|")
    for kind, count in tally.moves.most_common():
        counts = tally.calls[kind]
        both = counts["group"] + counts["private"]
        print(
            f"| {kind} | {count} | {both / count:.2f} | {counts['group'] / count:.2f} | "
            f"{counts['private'] / count:.2f} | {counts['answer'] / count:.2f} |"
        )
    methods: Counter[str] = Counter()
    for counts in tally.methods.values():
        methods.update(counts)
    print("by method: " + ", ".join(f"{method} {count / moves:.2f}" for method, count in methods.most_common()))
    for kind, count in tally.moves.most_common():
        counts = tally.calls[kind]
        if counts["group"] + counts["private"] > 3 * count:  # where a kind over the budget spends
            print(
                f"  {kind}: "
                + ", ".join(f"{method} {n / count:.2f}" for method, n in tally.methods[kind].most_common())
            )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(SHORT_MATCHES))
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true", help="press as soon as the own chat shows the move")
    args = parser.parse_args()
    print("pace: " + ("fast, limits enforced" if args.fast else "every move shown everywhere before the next"))
    for game in args.games.split(","):
        tally = Tally()
        for match in range(args.matches):
            await play_match(game, args.seed + match, tally, args.fast)
        report(game, tally)


if __name__ == "__main__":
    asyncio.run(main())
