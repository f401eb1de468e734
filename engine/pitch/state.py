"""The state of a Pitch match: a self-contained, JSON-dumpable record (seed, options, seats, hand, scores).

Everything in it is immutable (tuples, strings, ints, and a `last_hand` summary that is never
changed once built), so `clone` is a cheap shallow copy: `apply` is `advance` on a clone, and
`advance` rebinds the fields it changes (with new tuples) on the state it is given.
Seats are indices into `players`; teams are seat % 2 with partnerships, else one team per seat.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
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
    hands: tuple[tuple[str, ...], ...]  # cards still held, by seat
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
    won: tuple[tuple[str, ...], ...]  # cards captured in tricks this hand, by seat
    tricks_won: tuple[int, ...]  # tricks taken this hand, by seat
    last_trick: tuple[int, tuple[str, ...], int] | None  # (leader, cards, winner) of the last finished trick
    scores: tuple[int, ...]  # match totals, by team
    winners: tuple[int, ...]  # seats that won the match
    last_hand: dict[str, Any] | None  # summary of the last scored hand (JSON-ready, never mutated)

    def clone(self) -> PitchState:
        """A shallow copy (every field is immutable); replaced below by a generated, unrolled version."""
        copy = object.__new__(PitchState)
        for name in _FIELD_NAMES:
            setattr(copy, name, getattr(self, name))
        return copy

    # ----- teams ----------------------------------------------------------------------------
    @property
    def partnerships(self) -> bool:
        return self.options.partnerships

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.options.partnerships else seat

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
            hands=tuple(tuple(hand) for hand in data["hands"]),
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
            won=tuple(tuple(cards) for cards in data["won"]),
            tricks_won=tuple(data["tricks_won"]),
            last_trick=None if last_trick is None else (last_trick[0], tuple(last_trick[1]), last_trick[2]),
            scores=tuple(data["scores"]),
            winners=tuple(data["winners"]),
            last_hand=data["last_hand"],
        )


_FIELD_NAMES = tuple(f.name for f in fields(PitchState))


def _unrolled_clone():
    """`clone` with one assignment per field: the hot path of every `apply`."""
    lines = ["def clone(self):", "    copy = new(PitchState)"]
    lines += [f"    copy.{name} = self.{name}" for name in _FIELD_NAMES]
    lines.append("    return copy")
    namespace = {"new": object.__new__, "PitchState": PitchState}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the dataclass's own field names
    clone = namespace["clone"]
    clone.__doc__ = PitchState.clone.__doc__
    return clone


PitchState.clone = _unrolled_clone()
