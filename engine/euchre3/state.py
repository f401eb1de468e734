"""The state of a Euchre-3 match: the engines' slotted record (engine.core.state) of immutable values.

Seats are indices into `players` (clockwise); the dummy is not a seat, it sits at the dealer's right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.state import GameState
from engine.euchre3.options import Euchre3Options

# Phases, in the order a hand goes through them.
BID1 = "bid1"  # first round of bidding: accept the up-card's suit or pass (E9-E13)
PICKUP = "pickup"  # the dealer picks the up-card up or leaves it (E12, EU3-A3)
BID2 = "bid2"  # second round: name a suit or pass (E14-E17)
MAKER_CHOICE = "maker_choice"  # the maker: alone or with the dummy (EU3-A7 step 2)
KEEP = "keep"  # the maker, having seen the dummy, keeps five cards (EU3-A7 step 3)
DEFEND = "defend"  # each defender in turn: alone or pass (EU3-A8)
PLAY = "play"  # tricks (E23-E26)
OVER = "over"  # the match is finished

# Where the up-card is (public knowledge: everyone saw it turned).
FACE_UP = "face_up"
TURNED_DOWN = "turned_down"
PICKED_UP = "picked_up"  # by the dealer after another seat accepted (may then be discarded)
TAKEN = "taken"  # by the dealer who accepted it
LEFT = "left"  # the dealer declined it; it stays face up on the kitty

# In the order a new match sets them (and `dump` lists them): the match, then the hand.
FIELDS = (
    "seed", "options", "players", "decks", "scores", "winners",
    "phase", "up_status", "trump", "maker", "maker_alone", "lone_defender", "sitting_out",
    "defence_queue", "discards", "dead", "trick", "leader", "tricks_won", "played", "last_trick",
    "last_trick_winner", "round", "dealer", "turn", "hands", "dummy", "kitty", "up_card",
)  # fmt: skip


class Euchre3State(GameState):
    """A match in progress. Field meanings:

    seed, options, players, decks (explicit deal orders, deal i+1 = decks[i]), round (1-based deal
    number), dealer (seat), scores (per seat), phase, turn (seat or None when over);
    hands (per seat), dummy (cards or None once the maker chose), kitty (undealt cards; holds the
    up-card while it is on the table), up_card (its identity), up_status;
    trump, maker, maker_alone (None until chosen), lone_defender, sitting_out (seats or None),
    defence_queue (defenders still to speak); discards (per seat, face down), dead (a lone
    maker's unused dummy); trick (((seat, card), ...)), leader, tricks_won (per seat), played
    (cards of finished tricks this hand), last_trick (((seat, card), ...) or None),
    last_trick_winner; winners (seats, filled when the match ends).

    Every field holds an int, a str, None, a tuple or the (frozen) options, and `advance`
    replaces a field rather than change it, so `copy` copies no container at all.
    """

    __slots__ = FIELDS

    seed: int | str
    options: Euchre3Options
    players: tuple[str, ...]
    decks: tuple[tuple[str, ...], ...]
    scores: tuple[int, int, int]
    winners: tuple[int, ...]
    phase: str
    up_status: str
    trump: str | None
    maker: int | None
    maker_alone: bool | None
    lone_defender: int | None
    sitting_out: int | None
    defence_queue: tuple[int, ...]
    discards: tuple[tuple[str, ...], ...]
    dead: tuple[str, ...] | None
    trick: tuple[tuple[int, str], ...]
    leader: int | None
    tricks_won: tuple[int, int, int]
    played: tuple[str, ...]
    last_trick: tuple[tuple[int, str], ...] | None
    last_trick_winner: int | None
    round: int
    dealer: int
    turn: int | None
    hands: tuple[tuple[str, ...], ...]
    dummy: tuple[str, ...] | None
    kitty: tuple[str, ...]
    up_card: str

    def copy(self) -> Euchre3State:
        """A copy that `advance` may change in place without touching this state (see the class)."""
        new = _new(Euchre3State)
        new.seed = self.seed
        new.options = self.options
        new.players = self.players
        new.decks = self.decks
        new.scores = self.scores
        new.winners = self.winners
        new.phase = self.phase
        new.up_status = self.up_status
        new.trump = self.trump
        new.maker = self.maker
        new.maker_alone = self.maker_alone
        new.lone_defender = self.lone_defender
        new.sitting_out = self.sitting_out
        new.defence_queue = self.defence_queue
        new.discards = self.discards
        new.dead = self.dead
        new.trick = self.trick
        new.leader = self.leader
        new.tricks_won = self.tricks_won
        new.played = self.played
        new.last_trick = self.last_trick
        new.last_trick_winner = self.last_trick_winner
        new.round = self.round
        new.dealer = self.dealer
        new.turn = self.turn
        new.hands = self.hands
        new.dummy = self.dummy
        new.kitty = self.kitty
        new.up_card = self.up_card
        return new

    # What the bidding has settled, read by the phases that come after it: each raises if asked
    # before (an engine bug), so that the rules read a seat or a suit, never an Optional.
    def trump_suit(self) -> str:
        if self.trump is None:
            raise LookupError(f"no trump yet (phase {self.phase})")
        return self.trump

    def maker_seat(self) -> int:
        if self.maker is None:
            raise LookupError(f"no maker yet (phase {self.phase})")
        return self.maker

    def dummy_cards(self) -> tuple[str, ...]:
        if self.dummy is None:
            raise LookupError(f"the dummy is gone (phase {self.phase})")
        return self.dummy

    def seat_to_act(self) -> int:
        if self.turn is None:
            raise LookupError("the match is over")
        return self.turn

    def __repr__(self) -> str:
        return f"Euchre3State(round={self.round}, phase={self.phase!r}, turn={self.turn})"

    # ----- persistence ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = {name: _to_json(getattr(self, name)) for name in FIELDS}
        data["options"] = self.options.model_dump(mode="json")
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Euchre3State:
        state = _new(cls)
        for name in FIELDS:
            setattr(state, name, _from_json(data[name]))
        state.options = Euchre3Options.model_validate(dict(data["options"]))
        return state


_new = object.__new__


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(item) for item in value)
    return value
