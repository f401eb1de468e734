"""Pitch's rules of bidding and play as pure functions: legal bids (PIT-A5), legal cards (PIT-A7, PIT-A8),
the winner of a trick (P13), and the timer's defaults (sections 7 and 8 of docs/games/rules/pitch.md).

Refusals are returned as `Refused` values with stable codes; nothing here changes a state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.cards import SUITS
from engine.core.protocol import Refused
from engine.pitch.cards import DECK, OF_SUIT, RANK, SUIT, SUIT_ORDER
from engine.pitch.state import PitchState

FORCED_MINIMUM = 2  # P10: a dealer whom everyone passed must bid at least 2
PITCH = 4  # P8: a bid of 4 is "pitching" and ends the auction
SMUDGE = 5  # table option: all four points and all six tricks


def top_bid(state: PitchState) -> int:
    return SMUDGE if state.options.smudge else PITCH


def dealer_is_forced(state: PitchState, seat: int) -> bool:
    """P10/PIT-A12: the dealer, when everyone before passed, cannot pass."""
    return seat == state.dealer and state.high_bid == 0


def may_steal(state: PitchState) -> bool:
    """Whether the dealer may steal (bid equal to) the current high bid now (P11, PIT-A5)."""
    return (
        1 <= state.high_bid <= 3
        and state.options.dealer_steal
        and state.seat_team[state.high_bidder] != state.seat_team[state.dealer]
    )


def steal_problem(state: PitchState) -> Refused | None:
    """Why the dealer may not steal the current high bid now (`may_steal` with the reason), or None."""
    if may_steal(state):
        return None
    if not 1 <= state.high_bid <= 3:
        return Refused("bid_too_low", f"A bid of {state.high_bid} cannot be stolen; bid higher or pass.")
    if not state.options.dealer_steal:
        return Refused("steal_not_allowed", "This table does not allow the dealer to steal; bid higher or pass.")
    return Refused("cannot_steal_from_partner", "You cannot steal your partner's bid; bid higher or pass.")


def legal_bid_values(state: PitchState, seat: int) -> list[int]:
    top = top_bid(state)
    if dealer_is_forced(state, seat):
        return list(range(max(FORCED_MINIMUM, state.options.min_bid), top + 1))
    lowest = state.high_bid + 1
    if seat == state.dealer and may_steal(state):
        lowest = state.high_bid
    return list(range(max(lowest, state.options.min_bid), top + 1))


def bid_problem(state: PitchState, seat: int, value: object) -> Refused | None:
    """Why `seat` may not bid `value` now (phase and turn already checked): it is not one of
    `legal_bid_values`, and the first reason that says why; None if it is."""
    if type(value) is int and value in legal_bid_values(state, seat):
        return None
    top = top_bid(state)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
        extra = " (5 is a smudge, not allowed at this table)" if value == SMUDGE else ""
        return Refused("bid_out_of_range", f"Bids are 1 to {top}{extra}; bid within range or pass.")
    if value < state.options.min_bid:
        return Refused("bid_below_minimum", f"The minimum bid at this table is {state.options.min_bid}.")
    if dealer_is_forced(state, seat):  # below the forced minimum
        return Refused("dealer_must_bid", "Everyone passed: as dealer you must bid at least 2.")
    if seat == state.dealer and value == state.high_bid:
        return steal_problem(state)
    return Refused("bid_too_low", f"The high bid is {state.high_bid}; bid more or pass.")


def pass_problem(state: PitchState, seat: int) -> Refused | None:
    if dealer_is_forced(state, seat):
        return Refused("dealer_must_bid", "Everyone passed: as dealer you must bid at least 2.")
    return None


# The cards of the suit led or of trumps, by suit led and trump: what may answer a lead.
_ANSWERS: dict[str, dict[str, frozenset[str]]] = {
    led: {trump: OF_SUIT[led] | OF_SUIT[trump] for trump in SUITS} for led in SUITS
}


def legal_cards(hand: Sequence[str], trick: Sequence[str], trump: str | None) -> list[str]:
    """PIT-A7/PIT-A8: any card to lead; to a trump lead a trump if able; else the led suit or a trump, or anything if void."""
    if trick:  # the pitcher's first card has set trumps
        assert trump is not None
        led = SUIT[trick[0]]
        if led == trump or not OF_SUIT[led].isdisjoint(hand):
            legal = list(filter(_ANSWERS[led][trump].__contains__, hand))
            if legal:  # empty only for a trump lead to a hand without trumps: then anything goes
                return legal
    return list(hand)


def play_problem(hand: Sequence[str], trick: Sequence[str], trump: str | None, card: object) -> Refused | None:
    """Why `card` may not be played now: not held, or not one of `legal_cards`; None if it may."""
    if not isinstance(card, str) or card not in hand:
        return Refused("not_in_hand", f"You do not hold {card}; play a card from your hand.")
    if card in legal_cards(hand, trick, trump):
        return None
    if SUIT[trick[0]] == trump:
        return Refused("must_follow_suit", "Trumps were led: play a trump.")
    return Refused("must_follow_suit", "Follow the suit led or play a trump.")


# How strongly each card plays in a trick (P13: trumps above the suit led, other suits below both),
# by suit led and then trump, as a bound `__getitem__`: the winner of a trick is one `max` in C.
_POWER: dict[str, dict[str, Callable[[str], int]]] = {
    led: {
        trump: {
            card: RANK[card] + (20 if SUIT[card] == trump else 0 if SUIT[card] == led else -20) for card in DECK
        }.__getitem__
        for trump in SUITS
    }
    for led in SUITS
}


def trick_winner(trick: Sequence[str], leader: int, trump: str, seats: int) -> int:
    """P13: the highest trump, else the highest card of the suit led."""
    return (leader + trick.index(max(trick, key=_POWER[SUIT[trick[0]]][trump]))) % seats


def timeout_card(legal: Sequence[str], trump: str | None) -> str:
    """Section 8: non-trumps first, then the lowest rank, then suit order S, H, D, C."""
    return min(legal, key=lambda card: (SUIT[card] == trump, RANK[card], SUIT_ORDER[SUIT[card]]))
