"""The state of a Pitch match: a self-contained, JSON-dumpable record (seed, options, seats, hand, scores).

Most fields are immutable (tuples, strings, ints, and a `last_hand` summary that is never
changed once built). The three that change on every trick, `hands`, `won` and `tricks_won`, are
lists that `advance` changes in place; `clone` copies those and shares the rest, so `apply`
(`advance` on a clone) never touches the state it was given.
Seats are indices into `players`; teams are seat % 2 with partnerships, else one team per seat.
The fields after `last_hand` are derived (never dumped, never compared): they spare the hot path work.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.pitch.options import PitchOptions

BIDDING = "bidding"
PLAYING = "playing"
FINISHED = "finished"

PASS = 0  # a pass in the bid history


@dataclass(slots=True, eq=True)
class PitchState:
    seed: int | str
    options: PitchOptions
    players: tuple[str, ...]
    decks: tuple[tuple[str, ...], ...]  # explicit decks for deals 1, 2, ... (later deals shuffle)
    hand_number: int
    dealer: int
    phase: str
    turn: int  # seat to act; -1 when finished
    hands: list[list[str]]  # cards still held, by seat (sorted, changed in place)
    dealt: tuple[tuple[str, ...], ...]  # the hands as dealt this hand (cards "in play", PIT-A3)
    stock: tuple[str, ...]  # undealt cards, never used in the hand
    bids: tuple[tuple[int, int], ...]  # (seat, value) in bidding order; value 0 is a pass
    high_bid: int
    high_bidder: int  # -1: nobody has bid
    pitcher: int  # -1 until the auction ends
    bid: int
    trump: str | None
    leader: int  # seat that led the current trick
    trick: tuple[str, ...]  # cards of the current trick in play order, from `leader` clockwise
    tricks_played: int
    won: list[list[str]]  # cards captured in tricks this hand, by seat (changed in place)
    tricks_won: list[int]  # tricks taken this hand, by seat (changed in place)
    last_trick: tuple[int, tuple[str, ...], int] | None  # (leader, cards, winner) of the last finished trick
    scores: tuple[int, ...]  # match totals, by team
    winners: tuple[int, ...]  # seats that won the match
    last_hand: dict[str, Any] | None  # summary of the last scored hand (JSON-ready, never mutated)
    # Derived from `players` and `options` (set by __post_init__, shared by clones): the seat after
    # each seat, the team of each seat, and for each leader the players in the order they play.
    next_seat: tuple[int, ...] = field(init=False, compare=False, repr=False)
    seat_team: tuple[int, ...] = field(init=False, compare=False, repr=False)
    play_order: tuple[tuple[str, ...], ...] = field(init=False, compare=False, repr=False)
    # The legal actions of the player to act, built on first request and dropped by every move:
    # `advance` validates an action by membership in it. Never changed in place, so clones may share it.
    legal: list[dict[str, Any]] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        seats = len(self.players)
        self.next_seat = tuple((seat + 1) % seats for seat in range(seats))
        self.seat_team = tuple(seat % 2 if self.options.partnerships else seat for seat in range(seats))
        self.play_order = tuple(self.players[leader:] + self.players[:leader] for leader in range(seats))

    def clone(self) -> PitchState:
        """A copy sharing every immutable field; replaced below by a generated, unrolled version."""
        copy = object.__new__(PitchState)
        for name in _FIELD_NAMES:
            setattr(copy, name, getattr(self, name))
        copy.hands = [list(cards) for cards in self.hands]
        copy.won = [list(cards) for cards in self.won]
        copy.tricks_won = list(self.tricks_won)
        return copy

    # ----- teams ----------------------------------------------------------------------------
    @property
    def partnerships(self) -> bool:
        return self.options.partnerships

    def team_of(self, seat: int) -> int:
        return self.seat_team[seat]

    def team_seats(self, team: int) -> list[int]:
        if self.options.partnerships:
            return [seat for seat in range(len(self.players)) if seat % 2 == team]
        return [team]

    # ----- persistence ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "options": self.options.model_dump(mode="json"),
            "players": list(self.players),
            "decks": [list(deck) for deck in self.decks],
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "hands": [list(hand) for hand in self.hands],
            "dealt": [list(hand) for hand in self.dealt],
            "stock": list(self.stock),
            "bids": [list(entry) for entry in self.bids],
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "pitcher": self.pitcher,
            "bid": self.bid,
            "trump": self.trump,
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks_played": self.tricks_played,
            "won": [list(cards) for cards in self.won],
            "tricks_won": list(self.tricks_won),
            "last_trick": None
            if self.last_trick is None
            else [self.last_trick[0], list(self.last_trick[1]), self.last_trick[2]],
            "scores": list(self.scores),
            "winners": list(self.winners),
            "last_hand": self.last_hand,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PitchState:
        last_trick = data["last_trick"]
        return cls(
            seed=data["seed"],
            options=PitchOptions.model_validate(data["options"]),
            players=tuple(data["players"]),
            decks=tuple(tuple(deck) for deck in data["decks"]),
            hand_number=data["hand_number"],
            dealer=data["dealer"],
            phase=data["phase"],
            turn=data["turn"],
            hands=[list(hand) for hand in data["hands"]],
            dealt=tuple(tuple(hand) for hand in data["dealt"]),
            stock=tuple(data["stock"]),
            bids=tuple((entry[0], entry[1]) for entry in data["bids"]),
            high_bid=data["high_bid"],
            high_bidder=data["high_bidder"],
            pitcher=data["pitcher"],
            bid=data["bid"],
            trump=data["trump"],
            leader=data["leader"],
            trick=tuple(data["trick"]),
            tricks_played=data["tricks_played"],
            won=[list(cards) for cards in data["won"]],
            tricks_won=list(data["tricks_won"]),
            last_trick=None if last_trick is None else (last_trick[0], tuple(last_trick[1]), last_trick[2]),
            scores=tuple(data["scores"]),
            winners=tuple(data["winners"]),
            last_hand=data["last_hand"],
        )


_FIELD_NAMES = tuple(f.name for f in fields(PitchState))
# The fields `advance` changes in place, and how `clone` copies them.
_COPIED = {
    "hands": "list(map(list, self.hands))",
    "won": "list(map(list, self.won))",
    "tricks_won": "list(self.tricks_won)",
}


def _unrolled_clone():
    """`clone` with one assignment per field: the hot path of every `apply`."""
    lines = ["def clone(self):", "    copy = new(PitchState)"]
    lines += [f"    copy.{name} = {_COPIED.get(name, f'self.{name}')}" for name in _FIELD_NAMES]
    lines.append("    return copy")
    namespace = {"new": object.__new__, "PitchState": PitchState}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the dataclass's own field names
    clone = namespace["clone"]
    clone.__doc__ = PitchState.clone.__doc__
    return clone


PitchState.clone = _unrolled_clone()
