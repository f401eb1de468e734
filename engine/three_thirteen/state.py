"""The match state of Three Thirteen as plain JSON-ready data, with dealing and copying.

A state is a dict (see the package docstring for its keys). `deal` lays out one round from an
explicit deck or a seeded shuffle; `fork` copies exactly what an action may change, so `apply`
never touches the state it was given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.cards import Card
from engine.core.rng import shuffled
from engine.three_thirteen.rules import deal_size, game_deck

State = dict[str, Any]

KEYS = (
    "seed", "options", "players", "seated", "decks", "round", "dealer", "phase", "turn", "hands",
    "stock", "discard", "drawn_from", "taken", "went_out", "final_turns", "table", "turns_taken",
    "reshuffles", "scores", "history", "last_round", "winners",
)


def left_of(players: Sequence[str], player: str) -> str:
    return players[(players.index(player) + 1) % len(players)]


def deck_of(state: State) -> list[Card]:
    return game_deck(len(state["players"]), state["options"]["jokers"])


def deal(state: State, round_number: int, dealer: str, seated: list[str]) -> None:
    """Deal round `round_number` into `state` (a fork): T7, T8, README's dealing order."""
    number = round_number - 1
    if number < len(state["decks"]):
        cards = list(state["decks"][number])
    else:
        cards = shuffled(deck_of(state), state["seed"], "deal", round_number)
    size = deal_size(round_number)
    start = seated.index(dealer) + 1
    order = [seated[(start + k) % len(seated)] for k in range(len(seated))]  # ends with the dealer
    hands: dict[str, list[Card]] = {player: [] for player in state["players"]}
    position = 0
    for _ in range(size):
        for player in order:
            hands[player].append(cards[position])
            position += 1
    state.update(
        round=round_number,
        dealer=dealer,
        seated=list(seated),
        phase="draw",
        turn=order[0],
        hands=hands,
        discard=[cards[position]],
        stock=cards[position + 1 :],
        drawn_from=None,
        taken=None,
        went_out=None,
        final_turns=[],
        table={},
        turns_taken={player: 0 for player in seated},
        reshuffles=0,
    )


def fork(state: State) -> State:
    """A copy sharing nothing that an action changes (table melds and history rows are never edited)."""
    new = dict(state)
    new["hands"] = {player: list(cards) for player, cards in state["hands"].items()}
    new["stock"] = list(state["stock"])
    new["discard"] = list(state["discard"])
    new["final_turns"] = list(state["final_turns"])
    new["table"] = dict(state["table"])
    new["turns_taken"] = dict(state["turns_taken"])
    new["scores"] = dict(state["scores"])
    new["history"] = list(state["history"])
    new["winners"] = list(state["winners"])
    return new


def deep_copy(data: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, scalars)."""
    if isinstance(data, dict):
        return {key: deep_copy(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [deep_copy(value) for value in data]
    return data


def load_state(data: Mapping[str, Any]) -> State:
    missing = [key for key in KEYS if key not in data]
    if missing:
        raise ValueError(f"not a Three Thirteen state: missing {missing[0]!r}")
    return deep_copy(dict(data))
