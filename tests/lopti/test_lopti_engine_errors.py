"""An engine bug inside an action surfaces as the bug it is, never as "malformed action" (which
tells a caller that its input was wrong and hides the fault)."""

from __future__ import annotations

import pytest

from engine.core.shapes import MalformedAction
from engine.lopti import GAME


def test_an_error_inside_a_well_formed_action_is_not_reported_as_malformed(monkeypatch):
    state = GAME.new(["amina", "baraka"], GAME.Options(), 1)
    player = GAME.to_act(state)[0]
    action = GAME.legal_actions(state, player)[0]

    def broken(game, state, seat, action):
        raise KeyError("a bug in the rules")

    monkeypatch.setitem(type(GAME)._handlers, action["type"], broken)
    with pytest.raises(KeyError):
        GAME.apply(state, player, action)
    with pytest.raises(MalformedAction):
        GAME.apply(state, player, {"type": "no_such_move"})
