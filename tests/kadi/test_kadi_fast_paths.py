"""The engine's shortcuts give exactly what the plain rules give: the seeded shuffle, the prebuilt
offered actions, and the legal-action cache that lets `advance` skip judging an offered action."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied
from engine.kadi import GAME
from engine.kadi.actions import ACCEPT, CALL, DRAW, HIDE, PASS, TIMEOUT, UNHIDE
from engine.kadi.rules import _add_plays, legal_plays
from tests.kadi.test_kadi_helpers import random_walk
from tests.kadi.test_kadi_properties import new_match


def reference_actions(state, player):
    """`legal_actions` built the plain way: every legal play, then the other moves in order."""
    if state.phase == "over":
        return []
    if player == CLOCK:
        return [TIMEOUT]
    if player not in state.seats:
        return []
    options = state.options
    actions = []
    if state.phase == "play" and player == state.turn:
        plays = legal_plays(state, player)
        size = len(state.hands[player])
        _add_plays(actions, plays, size, options.niko_kadi_ahead, options.power_finish == "forbidden")
        if state.drawn is not None:
            actions.append(PASS)
        elif state.pen_amount or not plays or options.voluntary_draw:
            actions.append(DRAW)
        if options.hiding and state.drawn is None and not state.hide_used:
            if state.hidden[player] is not None:
                actions.append(UNHIDE)
            elif size >= 3:
                actions += [HIDE[card] for card in dict.fromkeys(state.hands[player])]
    if state.window == player and (state.call_due or (options.niko_kadi_ahead and player not in state.announced)):
        actions.append(CALL)
    if state.phase == "challenge" and player != state.provisional and player not in state.accepted:
        actions.append(ACCEPT)
    if options.hiding:
        actions += [{"type": "accuse", "target": p} for p in state.seats if p != player]
    return actions


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 10**9), table=st.integers(0, 10**6))
def test_offered_actions_are_the_plain_rules_list(seed, table):
    """The prebuilt single and pair offers, the drawn-card shortcut and the order of everything."""
    state, players, _ = new_match(seed, table)
    rng = random.Random(seed ^ table)
    for _player, _action, _before, after, _events in random_walk(state, rng):
        for p in [*players, CLOCK]:
            assert GAME.legal_actions(after, p) == reference_actions(after, p), p


@settings(deadline=None, max_examples=12)
@given(seed=st.integers(0, 10**9), table=st.integers(0, 10**6))
def test_the_legal_action_cache_never_outlives_its_state(seed, table):
    """Offered actions are accepted without judging only on the state they were offered for;
    an equal action (not the offered object) is resolved the same; `apply` leaves the cache."""
    state, players, _ = new_match(seed, table)
    rng = random.Random(seed ^ table ^ 0xCAC4E)
    for player, action, before, after, events in random_walk(state, rng):
        offered = GAME.legal_actions(before, player)
        assert GAME.legal_actions(before, player) is offered  # cached
        assert action in offered
        fresh = GAME.load(json.loads(json.dumps(GAME.dump(before))))  # no cache: judged
        judged = GAME.advance(fresh, player, json.loads(json.dumps(action)))
        assert isinstance(judged, Applied)
        assert [e.to_json() for e in judged.events] == [e.to_json() for e in events]
        assert GAME.dump(judged.state) == GAME.dump(after)
        # The applied state offers what a fresh load of it offers, for everyone.
        reloaded = GAME.load(json.loads(json.dumps(GAME.dump(after))))
        for p in [*players, CLOCK]:
            assert GAME.legal_actions(after, p) == GAME.legal_actions(reloaded, p)
        assert GAME.legal_actions(before, player) is offered  # apply did not touch it
