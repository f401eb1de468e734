"""Dealing a Lopti round: nine cards each (three face down, three face up, three in hand), rest is the stock."""

from __future__ import annotations

from engine.core.fast import event
from engine.core.protocol import Event
from engine.core.rng import shuffled
from engine.lopti.meta import apply_pending
from engine.lopti.rules import DECK
from engine.lopti.state import SETUP, LoptiState


def deck_for_round(state: LoptiState, round_number: int) -> list[str]:
    """The explicit deck of this deal if the table gave one, else a shuffle from the seed."""
    if round_number <= len(state.decks):
        return list(state.decks[round_number - 1])
    return shuffled(DECK, state.seed, "deal", round_number)


def deal_round(state: LoptiState, round_number: int, events: list[Event]) -> None:
    """Deal round `round_number` into `state` (changed in place) and open its setup (LOP-A19).
    Changes voted for "next_round" apply first; house-rule skips and a reversed direction end
    with the round; the new round gets its Rule Vote (L20.1)."""
    if state.pending:
        apply_pending(state, events)
    state.direction = 1
    if state.skips:
        state.skips = []
    state.vote_used = False
    players = state.players
    seats = len(players)
    deck = deck_for_round(state, round_number)
    dealer = (state.first_dealer + round_number - 1) % seats
    order = [(dealer + 1 + offset) % seats for offset in range(seats)]
    face_down: list[list[str | None]] = [[] for _ in range(seats)]
    face_up: list[list[str]] = [[] for _ in range(seats)]
    hands: list[list[str]] = [[] for _ in range(seats)]
    index = 0
    for zone in (face_down, face_up, hands):  # one rotation per card, left of the dealer first
        for _ in range(3):
            for seat in order:
                zone[seat].append(deck[index])
                index += 1
    state.face_down, state.face_up, state.hands = face_down, face_up, hands
    state.stock = deck[index:]
    state.pile = []
    state.chain = []
    state.burned = []
    state.out = []
    state.round = round_number
    state.dealer = dealer
    if round_number > 1 and state.round_winner is not None:
        state.starter = state.round_winner
    else:
        state.starter = dealer
    state.round_winner = None
    state.phase = SETUP
    state.turn = state.starter
    state.extra = False
    state.obligation = False
    state.last_play = 0
    state.run = 0
    state.ready = [False] * seats
    state.swaps = [0] * seats
    events.append(
        event(
            "dealt",
            {
                "round": round_number,
                "dealer": players[dealer],
                "starter": players[state.starter],
                "face_up": {players[seat]: list(state.face_up[seat]) for seat in range(seats)},
                "stock_count": len(state.stock),
            },
            {players[seat]: {"hand": list(state.hands[seat])} for seat in range(seats)},
        )
    )
