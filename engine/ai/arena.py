"""The arena: whole matches between kinds of computer players, played directly on the engines.

`karata arena GAME --seats strong,random,random --matches N --seed S [--json]` (bot/cli.py)
calls `run_arena`. Match m seats the kinds rotated by m places, so every kind sits in every
seat equally often; its seed is S + m. A match's winners share the win (a tie of two gives each
half). Decision times are the CPU time of `choose` alone, read by the clock the caller passes
(bot/cli.py passes `time.process_time`: the engine floor never reads a clock). CPU time, because on a machine
shared with other work the wall clock mostly measures the wait for a core; on an idle machine
the two agree.

Lopti has no match end (a table is an endless session): an arena match is `LOPTI_ROUNDS`
rounds without house rules, won by whoever won most rounds (ties shared).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai import LEVELS, choose
from engine.core.protocol import Game
from engine.registry import get_game

LOPTI_ROUNDS = 5
MAX_ACTIONS = 20_000  # a match that runs longer is a bug in a player, not a long game


@dataclass
class KindRecord:
    seats: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    decisions: list[float] = field(default_factory=list)  # seconds


def arena_options(game: Game) -> Any:
    if game.name == "lopti":
        return game.Options(house_rules="off")
    return game.Options()


def _finished(game: Game, state: Any) -> bool:
    if game.name == "lopti":
        return game.round_number(state) > LOPTI_ROUNDS
    return game.is_finished(state)


def _winners(game: Game, state: Any) -> list[str]:
    if game.name != "lopti":
        return game.winners(state)
    scores = game.scores(state)
    best = max(scores.values())
    return [player for player, score in scores.items() if score == best]


def play_match(game: Game, kinds: Sequence[str], seed: int, clock: Callable[[], float]):
    """One match with `kinds[i]` at seat i: (final scores, winners, decision seconds per seat)."""
    players = [f"p{i + 1}" for i in range(len(kinds))]
    level = dict(zip(players, kinds))
    state = game.new(players, arena_options(game), seed)
    times: dict[str, list[float]] = {player: [] for player in players}
    for step in range(MAX_ACTIONS):
        if _finished(game, state):
            break
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        view = game.view(state, player)
        started = clock()
        action = choose(game, view, legal, player, level[player], seed * 100_003 + step)
        times[player].append(clock() - started)
        result = game.advance(state, player, action)
        if not result.ok:
            raise AssertionError(f"{level[player]} chose a refused action {action}: {result.code}")
        state = result.state
    else:
        raise AssertionError(f"match {seed} did not end within {MAX_ACTIONS} actions")
    return game.scores(state), _winners(game, state), times


def seating(seats: Sequence[str], match: int) -> list[str]:
    """The kinds at seats 1, 2, ... in match number `match`: rotated by one seat each match."""
    shift = match % len(seats)
    return [*seats[shift:], *seats[:shift]]


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run_arena(
    game_name: str,
    seats: Sequence[str],
    matches: int,
    seed: int,
    clock: Callable[[], float],
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play `matches` matches and sum them up per kind, in the shape `karata arena --json` prints.

    `clock` (seconds) times each decision: the engine floor reads no clock, its caller does."""
    game = get_game(game_name)
    unknown = [kind for kind in seats if kind not in LEVELS]
    if unknown:
        raise ValueError(f"unknown seat kind {unknown[0]!r}; one of {', '.join(LEVELS)}")
    problem = game.player_count_problem([f"p{i}" for i in range(len(seats))], arena_options(game))
    if problem:
        raise ValueError(problem)
    records = {kind: KindRecord(seats=list(seats).count(kind)) for kind in dict.fromkeys(seats)}
    count = len(seats)
    for match in range(matches):
        kinds = seating(seats, match)
        scores, winners, times = play_match(game, kinds, seed + match, clock)
        players = [f"p{i + 1}" for i in range(count)]
        for player, kind in zip(players, kinds):
            record = records[kind]
            record.scores.append(scores[player])
            record.decisions.extend(times[player])
            if player in winners:
                record.wins += 1 / len(winners)
        if progress:
            progress(match + 1)
    return {
        "game": game_name,
        "matches": matches,
        "seats": list(seats),
        "kinds": {
            kind: {
                "seats": record.seats,
                "wins": round(record.wins, 4),
                "win_rate": round(record.wins / matches, 4) if matches else 0.0,
                "mean_score": round(sum(record.scores) / len(record.scores), 3) if record.scores else 0.0,
                "decision_ms": {
                    "p50": round(percentile(record.decisions, 0.50) * 1000, 3),
                    "p99": round(percentile(record.decisions, 0.99) * 1000, 3),
                    "max": round(max(record.decisions, default=0.0) * 1000, 3),
                },
            }
            for kind, record in records.items()
        },
    }


def format_report(report: dict[str, Any]) -> str:
    """The arena's figures as a small table for a terminal."""
    lines = [
        f"{report['game']}: {report['matches']} matches, seats {', '.join(report['seats'])}",
        f"{'kind':<8} {'seats':>5} {'wins':>8} {'win rate':>8} {'mean score':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    for kind, figures in report["kinds"].items():
        ms = figures["decision_ms"]
        lines.append(
            f"{kind:<8} {figures['seats']:>5} {figures['wins']:>8g} {figures['win_rate']:>8.1%} "
            f"{figures['mean_score']:>10.2f} {ms['p50']:>8.2f} {ms['p99']:>8.2f} {ms['max']:>8.2f}"
        )
    return "\n".join(lines)
