"""What each player (or a spectator) may see of a Lopti table, and the replay's full `hands`.

This is the one place where hidden cards are removed: other players' hands, every face-down
card (even your own, L13.4) and the stock are never shown, only counted.
"""

from __future__ import annotations

from typing import Any

from engine.lopti.meta import duel_view, proposals_problem, vote_view
from engine.lopti.rules import SEVEN, VALUE, sort_cards
from engine.lopti.session import active_rules, public_rule
from engine.lopti.state import AUTHORING, PLAY, LoptiState


def player_view(state: LoptiState, player: str | None, to_act: list[str]) -> dict[str, Any]:
    players = state.players
    me = players.index(player) if player is not None else None
    pile = state.pile
    playing = state.phase == PLAY
    seats = {}
    for seat, name in enumerate(players):
        seats[name] = {
            "hand_count": len(state.hands[seat]),
            "face_up": list(state.face_up[seat]),
            "face_down": [index for index, card in enumerate(state.face_down[seat]) if card is not None],
            "ready": bool(state.ready[seat]),
            "swaps": state.swaps[seat],
            "out": seat in state.out,
            "wins": state.wins[seat],
        }
    return {
        "game": "lopti",
        "me": player,
        "round": state.round,
        "phase": state.phase,
        "players": list(players),
        "dealer": players[state.dealer],
        "starter": players[state.starter],
        "to_act": to_act,
        "turn": players[state.turn] if playing else None,
        "hand": sort_cards(state.hands[me]) if me is not None else None,
        "seats": seats,
        "pile": list(pile),
        "pile_top": pile[-1] if pile else None,
        "previous_play": state.last_play,
        "top_run": state.run,
        "chain": list(state.chain),
        "stock_count": len(state.stock),
        "burned_count": len(state.burned),
        "obligation": players[state.turn] if playing and state.obligation else None,
        "low_condition": bool(pile) and VALUE[pile[-1]] == SEVEN,
        "extra_play": playing and state.extra,
        "out": [players[seat] for seat in state.out],
        "round_winner": players[state.round_winner] if state.round_winner is not None else None,
        "awaiting_rule": players[state.winner_seat()] if state.phase == AUTHORING else None,
        "scores": dict(zip(players, state.wins)),
        "rules": active_rules(state),
        "removed_rules": [public_rule(record) for record in state.rules if not record["active"]],
        "direction": "clockwise" if state.direction == 1 else "anticlockwise",
        "skips": [players[seat] for seat in state.skips],
        "vote": vote_view(state),
        "vote_used": state.vote_used,
        # Why no change may be proposed now (the engine's refusal code), or None.
        "proposal_refusal": refusal[0] if (refusal := proposals_problem(state)) else None,
        "pending_changes": [dict(change) for change in state.pending],
        "duel": duel_view(state, player),
        "options": dict(state.options),
    }


def replay_hands(state: LoptiState) -> dict[str, Any]:
    return {
        name: {
            "hand": sort_cards(state.hands[seat]),
            "face_up": list(state.face_up[seat]),
            "face_down": [card for card in state.face_down[seat] if card is not None],
        }
        for seat, name in enumerate(state.players)
    }
