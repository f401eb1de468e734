"""The match state of Three Thirteen: the engines' slotted record (engine.core.state), with dealing.

`deal` lays out one round from an explicit deck or a seeded shuffle. Every value is JSON-ready
(the options are their JSON dict), so `to_dict` and `from_dict` are deep copies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.cards import Card
from engine.core.rng import shuffled
from engine.core.state import GameState
from engine.three_thirteen.rules import deal_size, game_deck

# In the order a new match sets them (and `dump` lists them): the match, then the round.
FIELDS = (
    "seed", "options", "players", "decks", "scores", "history", "last_round", "winners",
    "round", "dealer", "seated", "phase", "turn", "hands", "discard", "stock", "drawn_from", "taken",
    "went_out", "final_turns", "table", "turns_taken", "reshuffles",
)  # fmt: skip


class ThreeThirteenState(GameState):
    """A match: the table (seed, options, players, explicit decks), the totals, the round.

    seed, options (the options' JSON dict), players (all seats, clockwise), decks (explicit deal
    orders, deal i+1 = decks[i]), scores {player: total}, history ([{"round", "points"}]),
    last_round (the latest round_scored payload or None), winners; round (1-11, 12 for a
    tie-break), dealer, seated (playing this round), phase ("draw" | "discard" | "finished"),
    turn, hands {player: cards}, discard (last is the top), stock (index 0 is the top),
    drawn_from and taken (this turn's draw), went_out (who went out first, or None),
    final_turns (who still plays, in order), table {player: melds laid down}, turns_taken
    {player: turns this round}, reshuffles (of the stock this round).

    `copy` copies what `advance` changes in place: the hands dict and every hand, the stock,
    the discard pile, final_turns, and the table, turns_taken, scores and history containers.
    Everything else is replaced when it changes; table melds, history rows and the last
    round's summary are never changed once made, so copies share them.
    """

    __slots__ = FIELDS

    seed: int | str
    options: dict[str, Any]
    players: list[str]
    decks: list[list[Card]]
    scores: dict[str, int]
    history: list[dict[str, Any]]
    last_round: dict[str, Any] | None
    winners: list[str]
    round: int
    dealer: str
    seated: list[str]
    phase: str
    turn: str
    hands: dict[str, list[Card]]
    discard: list[Card]
    stock: list[Card]
    drawn_from: str | None
    taken: Card | None
    went_out: str | None
    final_turns: list[str]
    table: dict[str, list[list[Card]]]
    turns_taken: dict[str, int]
    reshuffles: int

    def copy(self) -> ThreeThirteenState:
        """A copy that `advance` may change in place without touching this state (see the class)."""
        new = _new(ThreeThirteenState)
        new.seed = self.seed
        new.options = self.options
        new.players = self.players
        new.decks = self.decks
        new.scores = dict(self.scores)
        new.history = list(self.history)
        new.last_round = self.last_round
        new.winners = self.winners
        new.round = self.round
        new.dealer = self.dealer
        new.seated = self.seated
        new.phase = self.phase
        new.turn = self.turn
        new.hands = {player: list(cards) for player, cards in self.hands.items()}
        new.discard = list(self.discard)
        new.stock = list(self.stock)
        new.drawn_from = self.drawn_from
        new.taken = self.taken
        new.went_out = self.went_out
        new.final_turns = list(self.final_turns)
        new.table = dict(self.table)
        new.turns_taken = dict(self.turns_taken)
        new.reshuffles = self.reshuffles
        return new

    def to_dict(self) -> dict[str, Any]:
        return {name: deep_copy(getattr(self, name)) for name in FIELDS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ThreeThirteenState:
        missing = [name for name in FIELDS if name not in data]
        if missing:
            raise ValueError(f"not a Three Thirteen state: missing {missing[0]!r}")
        state = _new(cls)
        for name in FIELDS:
            setattr(state, name, deep_copy(data[name]))
        return state


_new = object.__new__


def left_of(players: Sequence[str], player: str) -> str:
    return players[(players.index(player) + 1) % len(players)]


def deck_of(state: ThreeThirteenState) -> list[Card]:
    return game_deck(len(state.players), state.options["jokers"])


def deal(state: ThreeThirteenState, round_number: int, dealer: str, seated: list[str]) -> None:
    """Deal round `round_number` into `state` (changed in place): T7, T8, README's dealing order."""
    number = round_number - 1
    if number < len(state.decks):
        cards = list(state.decks[number])
    else:
        cards = shuffled(deck_of(state), state.seed, "deal", round_number)
    size = deal_size(round_number)
    start = seated.index(dealer) + 1
    order = [seated[(start + k) % len(seated)] for k in range(len(seated))]  # ends with the dealer
    hands: dict[str, list[Card]] = {player: [] for player in state.players}
    position = 0
    for _ in range(size):
        for player in order:
            hands[player].append(cards[position])
            position += 1
    state.round = round_number
    state.dealer = dealer
    state.seated = list(seated)
    state.phase = "draw"
    state.turn = order[0]
    state.hands = hands
    state.discard = [cards[position]]
    state.stock = cards[position + 1 :]
    state.drawn_from = None
    state.taken = None
    state.went_out = None
    state.final_turns = []
    state.table = {}
    state.turns_taken = {player: 0 for player in seated}
    state.reshuffles = 0


def deep_copy(data: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, scalars)."""
    if isinstance(data, dict):
        return {key: deep_copy(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [deep_copy(value) for value in data]
    return data
