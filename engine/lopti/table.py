"""What both a turn and a house rule ask of the table or do to it: the next seat in play,
whether a seat has played all its cards, and the burn of the pile.

Below `turns` (the base game) and `house` (house-rule effects), which both use them.
"""

from __future__ import annotations

from engine.core.fast import event
from engine.core.protocol import Event
from engine.lopti.state import LoptiState


def next_active(state: LoptiState, seat: int, step: int = 1) -> int:
    """The next seat in the direction of play (clockwise unless a house rule reversed it; with
    `step` -1, against it) that is not out (LOP-A10); `seat` itself when everyone else is out.
    Pending house-rule skips are not counted here (see `turns.next_turn`)."""
    out = state.out
    seats = len(state.players)
    direction = state.direction * step
    candidate = (seat + direction) % seats
    while candidate in out and candidate != seat:
        candidate = (candidate + direction) % seats
    return candidate


def is_out(state: LoptiState, seat: int) -> bool:
    """Whether `seat` has no card left in hand, face up or face down (L17.1: out of the round)."""
    if state.hands[seat] or state.face_up[seat]:
        return False
    for card in state.face_down[seat]:
        if card is not None:
            return False
    return True


def burn_pile(state: LoptiState, seat: int, cause: str, extra_cards: list[str], events: list[Event]) -> list[str]:
    """The burn itself (also a house rule's custom burn, which triggers no house rule)."""
    removed = state.pile + state.chain + extra_cards
    state.burned = state.burned + removed
    state.pile = []
    state.chain = []
    state.obligation = False
    state.last_play = 0
    state.run = 0
    events.append(event("burned", {"player": state.players[seat], "cause": cause, "cards": removed}))
    return removed
