"""Lopti's table state: the engines' slotted record (engine.core.state), dumped to JSON-ready data.

Seats are indices into `players`. Every card of the deck is in exactly one zone: a hand, a
face-up row, a face-down row (a used position holds None), the stock, the pile, the 3-chain
display or the burned cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.state import GameState
from engine.lopti.actions import FOLLOW

SETUP = "setup"
PLAY = "play"
AUTHORING = "authoring"

_SHARED = ("seed", "options", "players", "decks", "first_dealer", "ready", "swaps", "wins", "rules")
# Per-seat lists of lists, and flat card lists (see `LoptiState` for what `copy` copies).
_PER_SEAT = ("hands", "face_up", "face_down")
_CARD_LISTS = ("stock", "pile", "chain", "burned", "out")
_SCALARS = (
    "round",
    "dealer",
    "starter",
    "phase",
    "turn",
    "extra",
    "obligation",
    "last_play",
    "run",
    "round_winner",
    "next_rule_id",
)
# The meta-game (house rules, Rule Vote, duel); all replaced, never changed in place.
# direction: 1 clockwise, -1 reversed by a house rule (this round); skips: seats that miss their
# next turn (house rules, this round); vote / duel: the open Rule Vote / duel (dicts) or None;
# vote_used: this round's Rule Vote is taken; pending: changes voted for the next round;
# computers: players a computer plays (no house rules, no votes, no duels; dumped only when any).
_META = ("direction", "skips", "vote", "vote_used", "duel", "pending", "next_vote_id", "computers")
META_DEFAULTS = {
    "direction": 1,
    "skips": [],
    "vote": None,
    "vote_used": False,
    "duel": None,
    "pending": [],
    "next_vote_id": 1,
    "computers": [],
}
FIELDS = _SHARED + _PER_SEAT + _CARD_LISTS + _SCALARS + _META


class LoptiState(GameState):
    """One table: the session (rules, wins) and the round being played.

    `copy` copies what `advance` changes in place: the per-seat lists (`hands`, `face_up`,
    `face_down`) with every seat's row, the `pile` and the 3-`chain`. Every other list or dict
    (stock, burned, out, ready, swaps, wins, rules, skips, pending, options, the vote and the
    duel) is replaced whenever it changes, never changed in place, so copies share it.

    Derived, not dumped: `hooks` (from `rules`): event -> the active structured rules on it;
    `follow` (from `options`): `actions.FOLLOW` of the play options.
    """

    __slots__ = FIELDS + ("hooks", "follow")

    seed: int | str
    options: dict[str, Any]  # the options' JSON dict
    players: list[str]
    decks: list[list[str]]  # explicit deal orders: deal i+1 = decks[i]
    first_dealer: int
    ready: list[bool]  # per seat: done swapping (setup)
    swaps: list[int]  # per seat: swaps made (setup)
    wins: list[int]  # per seat: rounds won this session
    rules: list[dict[str, Any]]  # the house rule records, in the order they were made
    hands: list[list[str]]
    face_up: list[list[str]]
    face_down: list[list[str | None]]  # a used position holds None
    stock: list[str]
    pile: list[str]
    chain: list[str]
    burned: list[str]
    out: list[int]  # seats out of cards this round, in the order they went out
    round: int
    dealer: int
    starter: int
    phase: str
    turn: int
    extra: bool
    obligation: bool
    last_play: int
    run: int
    round_winner: int | None
    next_rule_id: int
    direction: int
    skips: list[int]
    vote: dict[str, Any] | None
    vote_used: bool
    duel: dict[str, Any] | None
    pending: list[dict[str, Any]]
    next_vote_id: int
    computers: list[str]
    hooks: dict[str, list[dict[str, Any]]]
    follow: dict[str, tuple[int, int, int]]

    def __init__(self, **values: Any):
        for name in FIELDS:
            setattr(
                self, name, values[name] if name in values or name not in META_DEFAULTS else _fresh(META_DEFAULTS[name])
            )
        self.rebuild_hooks()
        self.set_options(self.options)

    def set_options(self, options: dict[str, Any]) -> None:
        """Replace the options (never change them in place: copies share them) and `follow`."""
        self.options = options
        self.follow = FOLLOW[options["ten_on_seven"], options["sevens_stack_singly"]]

    def winner_seat(self) -> int:
        """The round's winner (the first out): there is one while the winner authors a rule."""
        if self.round_winner is None:
            raise LookupError("nobody has won this round yet")
        return self.round_winner

    def rebuild_hooks(self) -> None:
        self.hooks = build_hooks(self.rules) if self.rules else {}

    def copy(self) -> LoptiState:
        """A copy that `advance` may change in place without touching this state (see the class)."""
        copy = object.__new__(LoptiState)
        copy.seed = self.seed
        copy.options = self.options
        copy.players = self.players
        copy.decks = self.decks
        copy.first_dealer = self.first_dealer
        copy.ready = self.ready
        copy.swaps = self.swaps
        copy.wins = self.wins
        copy.rules = self.rules
        copy.hands = [row[:] for row in self.hands]
        copy.face_up = [row[:] for row in self.face_up]
        copy.face_down = [row[:] for row in self.face_down]
        copy.stock = self.stock
        copy.pile = self.pile[:]
        copy.chain = self.chain[:]
        copy.burned = self.burned
        copy.out = self.out
        copy.round = self.round
        copy.dealer = self.dealer
        copy.starter = self.starter
        copy.phase = self.phase
        copy.turn = self.turn
        copy.extra = self.extra
        copy.obligation = self.obligation
        copy.last_play = self.last_play
        copy.run = self.run
        copy.round_winner = self.round_winner
        copy.next_rule_id = self.next_rule_id
        copy.hooks = self.hooks
        copy.follow = self.follow
        copy.direction = self.direction
        copy.skips = self.skips
        copy.vote = self.vote
        copy.vote_used = self.vote_used
        copy.duel = self.duel
        copy.pending = self.pending
        copy.next_vote_id = self.next_vote_id
        copy.computers = self.computers
        return copy

    def to_dict(self) -> dict[str, Any]:
        return {
            name: _fresh_field(name, getattr(self, name)) for name in FIELDS if name != "computers" or self.computers
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LoptiState:
        values = {}
        for name in FIELDS:
            if name not in data and name in META_DEFAULTS:  # a dump from before the meta-game
                continue
            values[name] = _fresh_field(name, data[name])
        return cls(**values)

    def __repr__(self) -> str:
        return f"LoptiState(round={self.round}, phase={self.phase!r}, turn={self.turn})"


def build_hooks(rules: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """event -> the active structured rule records on it, in the order they were made."""
    hooks: dict[str, list[dict[str, Any]]] = {}
    for record in rules:
        if record["active"] and record["rule"] is not None:
            hooks.setdefault(record["rule"]["event"], []).append(record)
    return hooks


def _fresh(value: Any) -> Any:
    """A deep copy of JSON-like data (the vote and duel dicts hold lists and dicts)."""
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


def _fresh_field(name: str, value: Any) -> Any:
    """A field's value with nothing shared, for a dump or a load: per-seat rows become lists."""
    if name in _PER_SEAT or name == "decks":
        return [list(row) for row in value]
    return _fresh(value)
