"""`python -m engine.replay FILE`: play a replay file and print the outcome as JSON.

The format and exit codes are fixed by docs/REPLAY.md: 0 when every action applied,
1 when one was refused (nothing after it is applied), 2 when the file is malformed. The whole
file is checked for shape before any action is applied.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.cards import is_card_code, parse_card
from engine.core.options import OptionsError, parse_options
from engine.core.protocol import CLOCK, Action, Game, MalformedAction, Refused
from engine.registry import UnknownGame, get_game

USAGE = "usage: python -m engine.replay FILE"
DESCRIPTION = """\
Play a replay file (JSON: game, players, options, seed, decks, actions) action by action and
print the outcome as one JSON object: ok, applied (how many actions), error (the refused
action: index, player, code, message), to_act, round, hands, scores, finished, winners.

Exit status: 0 when every action applied; 1 when one was refused (nothing after it is
applied); 2 when the file cannot be read or is malformed (the reason goes to standard error)."""


class MalformedFile(ValueError):
    pass


@dataclass(frozen=True)
class ReplayFile:
    game: Game
    players: list[str]
    dealer: str | None
    options: Any
    seed: int | str
    decks: list[list[str]]
    actions: list[tuple[str, Action]]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise MalformedFile(message)


def parse_replay(data: Any) -> ReplayFile:
    """Check the whole file's shape; raise MalformedFile naming the first problem."""
    _require(isinstance(data, dict), "the file must be a JSON object")
    known = {"game", "players", "dealer", "options", "seed", "decks", "actions"}
    unknown = sorted(set(data) - known)
    _require(not unknown, f"unknown field {unknown[0]!r}" if unknown else "")
    for name in ("game", "players", "actions"):
        _require(name in data, f"missing field {name!r}")
    _require(isinstance(data["game"], str), "'game' must be a string")
    try:
        game = get_game(data["game"])
    except UnknownGame:
        raise MalformedFile(f"unknown game {data['game']!r}") from None

    players = data["players"]
    _require(
        isinstance(players, list) and bool(players) and all(isinstance(p, str) and p for p in players),
        "'players' must be a non-empty list of names",
    )
    _require(len(set(players)) == len(players), "'players' has a name twice")
    _require(CLOCK not in players, f"{CLOCK!r} cannot be a player")

    dealer = data.get("dealer")
    _require(dealer is None or dealer in players, f"unknown dealer {dealer!r}")

    raw_options = data.get("options", {})
    _require(isinstance(raw_options, dict), "'options' must be an object")
    try:
        options = parse_options(game.Options, raw_options)
    except OptionsError as error:
        raise MalformedFile(str(error)) from None
    problem = game.player_count_problem(players, options)
    _require(problem is None, problem or "")

    seed = data.get("seed", 0)
    _require(isinstance(seed, (int, str)) and not isinstance(seed, bool), "'seed' must be an integer or a string")

    decks = data.get("decks", [])
    _require(isinstance(decks, list), "'decks' must be a list of decks")
    parsed_decks = []
    for number, deck in enumerate(decks, start=1):
        _require(isinstance(deck, list), f"deck {number} must be a list of card codes")
        bad = [card for card in deck if not is_card_code(card)]
        _require(not bad, f"deck {number}: {bad[0]!r} is not a card code" if bad else "")
        parsed_decks.append([parse_card(card) for card in deck])
    try:
        game.check_decks(parsed_decks, options, players)
    except ValueError as error:
        raise MalformedFile(str(error)) from None

    raw_actions = data["actions"]
    _require(isinstance(raw_actions, list), "'actions' must be a list")
    actions = []
    for index, entry in enumerate(raw_actions):
        _require(
            isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str),
            f"action {index} must be [player, action]",
        )
        try:
            actions.append((entry[0], game.check_action(entry[0], entry[1], players)))
        except MalformedAction as error:
            raise MalformedFile(f"action {index}: {error}") from None
    return ReplayFile(game, players, dealer, options, seed, parsed_decks, actions)


def run_replay(replay: ReplayFile) -> dict[str, Any]:
    game = replay.game
    state = game.new(replay.players, replay.options, replay.seed, replay.dealer, replay.decks)
    applied = 0
    error = None
    for index, (player, action) in enumerate(replay.actions):
        result = game.apply(state, player, action)
        if isinstance(result, Refused):
            error = {"index": index, "player": player, "code": result.code, "message": result.message}
            break
        state = result.state
        applied += 1
    return {
        "ok": error is None,
        "applied": applied,
        "error": error,
        "to_act": game.to_act(state),
        "round": game.round_number(state),
        "hands": game.replay_hands(state),
        "scores": game.scores(state),
        "finished": game.is_finished(state),
        "winners": game.winners(state),
    }


def main(argv: Sequence[str] | None = None, prefix: str = "") -> int:
    """`prefix` starts each error line (`karata replay: ` when the karata command runs it)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(f"{USAGE}\n\n{DESCRIPTION}")
        return 0
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        print(f"{prefix}cannot read {args[0]}: {reason}", file=sys.stderr)
        return 2
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"{prefix}{args[0]} is not a replay file: it is not JSON ({error})", file=sys.stderr)
        return 2
    try:
        replay = parse_replay(data)
    except MalformedFile as error:
        print(f"{prefix}{args[0]} is not a valid replay file: {error}", file=sys.stderr)
        return 2
    outcome = run_replay(replay)
    json.dump(outcome, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0 if outcome["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
