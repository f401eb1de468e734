"""What one player (or a spectator) may see of a Kadi table: the one place secrets are removed."""

from __future__ import annotations

from typing import Any

from engine.kadi.rules import effective_top
from engine.kadi.state import KadiState


def player_view(state: KadiState, player: str | None) -> dict[str, Any]:
    """The table as `player` sees it; None is a spectator (no hand, no hidden card, no drawn card)."""
    top = state.discard[-1]
    command = state.command
    view: dict[str, Any] = {
        "game": "kadi",
        "round": state.round,
        "phase": state.phase,
        "players": list(state.players),
        "seats": list(state.seats),
        "eliminated": [p for p in state.players if p not in state.seats],
        "dealer": state.dealer,
        "turn": state.turn,
        "direction": "clockwise" if state.direction == 1 else "anticlockwise",
        "top": top,
        "match_top": effective_top(state) if state.phase != "over" else top,
        "discard_size": len(state.discard),
        "discard": list(state.discard),  # public: every card on it was played face up
        "stock_size": len(state.stock),
        "counts": {p: len(state.hands[p]) for p in state.seats},
        "penalty": {"kind": state.pen_kind, "amount": state.pen_amount} if state.pen_amount else None,
        "command": None if command is None else ({"power": True} if command == "power" else {"suit": command}),
        "call_window": state.window,
        "call_due": state.window if state.call_due else None,
        "announced": list(state.announced),
        "provisional_winner": state.provisional,
        "accepted": list(state.accepted),
        "scores": dict(state.scores),
        "points_limit": state.options.points_limit,
        "options": state.options.model_dump(mode="json"),
        "finished": state.phase == "over",
        "winners": list(state.winners),
        "you": player,
    }
    if player is not None and player in state.players:
        seated = player in state.seats
        view["hand"] = list(state.hands[player]) if seated else []
        view["hidden"] = state.hidden[player] if seated else None
        view["drawn"] = state.drawn if state.turn == player else None
    return view
