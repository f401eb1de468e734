"""The state of a Pitch match: the engines' slotted record (engine.core.state), JSON-dumpable.

Seats are indices into `players`; teams are seat % 2 with partnerships, else one team per seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.state import GameState
from engine.pitch.options import PitchOptions

BIDDING = "bidding"
PLAYING = "playing"
FINISHED = "finished"

PASS = 0  # a pass in the bid history


FIELDS = (
    "seed", "options", "players", "decks", "hand_number", "dealer", "phase", "turn", "hands", "dealt",
    "stock", "bids", "high_bid", "high_bidder", "pitcher", "bid", "trump", "leader", "trick",
    "tricks_played", "won", "tricks_won", "last_trick", "scores", "winners", "last_hand",
)  # fmt: skip


class PitchState(GameState):
    """A match: the table (seed, options, seats, explicit decks), the hand being played, the totals.

    `copy` copies what `advance` changes in place: `hands`, `won` (each seat's list too) and
    `tricks_won`. Every other field is immutable (tuples, strings, ints, and a `last_hand`
    summary that is never changed once built) and is replaced when it changes.

    Derived, not dumped: from `players` and `options`, `next_seat` (the seat after each seat),
    `seat_team` (the team of each seat) and `play_order` (for each leader, the players in the
    order they play); and `legal`, the legal actions of the player to act, built on first
    request and dropped by every move (`advance` validates an action by membership in it; it
    is never changed in place, so copies share it).
    """

    __slots__ = (*FIELDS, "next_seat", "seat_team", "play_order", "legal")

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
    next_seat: tuple[int, ...]
    seat_team: tuple[int, ...]
    play_order: tuple[tuple[str, ...], ...]
    legal: list[dict[str, Any]] | None

    def __init__(self, **values: Any) -> None:
        for name in FIELDS:
            setattr(self, name, values[name])
        seats = len(self.players)
        self.next_seat = tuple((seat + 1) % seats for seat in range(seats))
        self.seat_team = tuple(seat % 2 if self.options.partnerships else seat for seat in range(seats))
        self.play_order = tuple(self.players[leader:] + self.players[:leader] for leader in range(seats))
        self.legal = None

    def copy(self) -> PitchState:
        """A copy that `advance` may change in place without touching this state (see the class)."""
        copy = _new(PitchState)
        copy.seed = self.seed
        copy.options = self.options
        copy.players = self.players
        copy.decks = self.decks
        copy.hand_number = self.hand_number
        copy.dealer = self.dealer
        copy.phase = self.phase
        copy.turn = self.turn
        copy.hands = list(map(list, self.hands))
        copy.dealt = self.dealt
        copy.stock = self.stock
        copy.bids = self.bids
        copy.high_bid = self.high_bid
        copy.high_bidder = self.high_bidder
        copy.pitcher = self.pitcher
        copy.bid = self.bid
        copy.trump = self.trump
        copy.leader = self.leader
        copy.trick = self.trick
        copy.tricks_played = self.tricks_played
        copy.won = list(map(list, self.won))
        copy.tricks_won = list(self.tricks_won)
        copy.last_trick = self.last_trick
        copy.scores = self.scores
        copy.winners = self.winners
        copy.last_hand = self.last_hand
        copy.next_seat = self.next_seat
        copy.seat_team = self.seat_team
        copy.play_order = self.play_order
        copy.legal = self.legal
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
    def from_dict(cls, data: Mapping[str, Any]) -> PitchState:
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


_new = object.__new__
