"""What a player (or a spectator) may see of a Euchre-3 table: the one place secrets are removed.

Public: the up-card (everyone saw it turned), counts, trump, who made it and how, who is alone
or sitting out, the trick on the table, the last trick, tricks won, scores. Private to a seat:
its own hand and its own face-down discards, and the dummy for the maker who chose to merge it
(while choosing what to keep). Nobody sees the kitty, the dummy otherwise, or others' discards.
"""

from __future__ import annotations

from typing import Any

from engine.euchre3.rules import accept_label
from engine.euchre3.state import BID1, BID2, KEEP, Euchre3State


def _seat_name(state: Euchre3State, seat: int | None) -> str | None:
    return None if seat is None else state.players[seat]


def table_view(state: Euchre3State, player: str | None) -> dict[str, Any]:
    players = state.players
    seat = players.index(player) if player in players else None
    view: dict[str, Any] = {
        "game": "euchre3",
        "players": list(players),
        "round": state.round,
        "phase": state.phase,
        "to_act": [] if state.turn is None else [players[state.turn]],
        "dealer": players[state.dealer],
        "accept_labels": {players[s]: accept_label(state, s) for s in range(3)},
        "bidding_round": 1 if state.phase == BID1 else 2 if state.phase == BID2 else None,
        "up_card": state.up_card,
        "up_card_status": state.up_status,
        "trump": state.trump,
        "maker": _seat_name(state, state.maker),
        "maker_alone": state.maker_alone,
        "lone_defender": _seat_name(state, state.lone_defender),
        "sitting_out": _seat_name(state, state.sitting_out),
        "defenders_to_speak": [players[s] for s in state.defence_queue],
        "hand_counts": {players[s]: len(state.hands[s]) for s in range(3)},
        "dummy_count": None if state.dummy is None else len(state.dummy),
        "kitty_count": len(state.kitty),
        "discard_counts": {players[s]: len(state.discards[s]) for s in range(3)},
        "trick": [{"player": players[s], "card": card} for s, card in state.trick],
        "leader": _seat_name(state, state.leader),
        "tricks_won": {players[s]: state.tricks_won[s] for s in range(3)},
        "played": list(state.played),  # public: the cards of this hand's finished tricks
        "last_trick": None
        if state.last_trick is None or state.last_trick_winner is None  # set together
        else {
            "cards": [{"player": players[s], "card": card} for s, card in state.last_trick],
            "winner": players[state.last_trick_winner],
        },
        "scores": {players[s]: state.scores[s] for s in range(3)},
        "target": state.options.target,
        "options": state.options.model_dump(mode="json"),
        "finished": state.turn is None,
        "winners": [players[s] for s in state.winners],
        "you": player if seat is not None else None,
    }
    if seat is not None:
        view["hand"] = list(state.hands[seat])
        view["discards"] = list(state.discards[seat])
        if state.phase == KEEP and seat == state.maker:
            view["dummy"] = list(state.dummy_cards())
    return view
