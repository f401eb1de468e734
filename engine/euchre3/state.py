"""The state of a Euchre-3 match: one flat object of immutable values, cheap to copy.

Every field holds an int, a str, None or a tuple, so `copy()` (a shallow copy of the attribute
dict) gives an independent state: `apply` copies, then replaces the fields it changes. Seats are
indices into `players` (clockwise); the dummy is not a seat, it sits at the dealer's right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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

class State:
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
    """

    __slots__ = ("__dict__",)

    def copy(self) -> State:
        new = State.__new__(State)
        new.__dict__ = self.__dict__.copy()
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"State(round={self.round}, phase={self.phase!r}, turn={self.turn})"

    # ----- persistence ----------------------------------------------------------------------
    def dump(self) -> dict[str, Any]:
        data = {}
        for name, value in self.__dict__.items():
            data[name] = _to_json(value)
        data["options"] = self.options.model_dump(mode="json")
        return data

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> State:
        state = cls.__new__(cls)
        values = {}
        for name, value in data.items():
            values[name] = _from_json(value)
        values["options"] = Euchre3Options.model_validate(dict(data["options"]))
        state.__dict__ = values
        return state


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(item) for item in value)
    return value
