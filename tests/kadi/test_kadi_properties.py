"""Random legal play over random seeds and option sets: invariants every Kadi match must keep."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied, Refused
from engine.kadi import GAME
from engine.kadi.cards import DECK, RANK
from tests.kadi.test_kadi_helpers import all_cards, random_options, random_walk

NAMES = ["amina", "baraka", "chausiku", "daudi", "eshe", "faraji", "gift"]


def new_match(seed: int, table: int):
    rng = random.Random(table)
    options = random_options(rng)
    most = 7 if options.hand_size <= 6 else 6
    players = NAMES[: rng.randint(2, min(most, 5))]
    return GAME.new(players, options, seed), players, options


def canonical(action):
    """The offered form of a play: the order of the middle cards does not change its effect."""
    if action.get("type") != "play":
        return action
    cards = list(action.get("cards", []))
    if len(cards) > 2:
        order = {card: index for index, card in enumerate(DECK)}
        cards = [cards[0], *sorted(cards[1:-1], key=order.__getitem__), cards[-1]]
    return {k: (cards if k == "cards" else v) for k, v in action.items() if k != "call"}


def random_play_attempt(state, player, rng):
    """A well-formed play that may or may not be legal: a random bag of cards of the hand and beyond."""
    hand = state.hands[player]
    pool = list(hand) + rng.sample(list(DECK), 2)
    cards = rng.sample(pool, rng.randint(0, min(4, len(pool))))
    if rng.random() < 0.6 and hand:
        rank = RANK[rng.choice(hand)]
        same = [c for c in hand if RANK[c] == rank]
        cards = rng.sample(same, rng.randint(1, len(same)))
    action = {"type": "play", "cards": cards}
    if cards and RANK[cards[0]] == "J":
        action["command"] = rng.choice([{"suit": "S"}, {"suit": "D"}, {"power": True}])
    return action


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 10**9), table=st.integers(0, 10**6))
def test_random_matches_keep_every_invariant_and_replay_identically(seed, table):
    """Card conservation, offered actions accepted, refusals change nothing, the match ends, replay."""
    state, players, options = new_match(seed, table)
    start = state
    rng = random.Random(seed ^ table)
    history = []
    full = Counter(DECK)
    assert all_cards(state) == full
    for step, (player, action, before, after, _events) in enumerate(random_walk(state, rng)):
        history.append((player, action))
        assert all_cards(after) == full
        hands = GAME.replay_hands(after)
        assert all(hands[p] == [] for p in players if p not in after.seats)
        if step % 7 == 0:
            snapshot = GAME.dump(before)
            offered = {p: GAME.legal_actions(before, p) for p in [*before.seats, CLOCK]}
            for p, actions in offered.items():
                for legal in actions:
                    assert isinstance(GAME.apply(before, p, legal), Applied), (p, legal)
            turn = GAME.to_act(before)[0]
            legal_plays = [canonical(a) for a in offered[turn] if a["type"] == "play"]
            for _ in range(6):
                attempt = random_play_attempt(before, turn, rng)
                result = GAME.apply(before, turn, attempt)
                if isinstance(result, Refused):
                    assert result.code and result.message
                else:
                    assert canonical(attempt) in legal_plays, attempt
            for p in players:
                for kind in ("draw", "pass", "call", "unhide", "accept"):
                    result = GAME.apply(before, p, {"type": kind})
                    assert isinstance(result, Applied) == ({"type": kind} in offered.get(p, [])), (p, kind)
            assert GAME.dump(before) == snapshot
        if step % 11 == 0:
            data = json.loads(json.dumps(GAME.dump(after)))
            loaded = GAME.load(data)
            assert loaded == after
            for p in [*after.seats, CLOCK]:
                assert GAME.legal_actions(loaded, p) == GAME.legal_actions(after, p)
        state = after
    assert GAME.is_finished(state)
    assert GAME.winners(state) and set(GAME.winners(state)) <= set(players)
    assert GAME.to_act(state) == []

    replayed = GAME.new(players, options, seed)
    assert replayed == start
    for player, action in history:
        result = GAME.apply(replayed, player, action)
        assert isinstance(result, Applied)
        replayed = result.state
    assert GAME.dump(replayed) == GAME.dump(state)
    assert GAME.scores(replayed) == GAME.scores(state)


@settings(deadline=None, max_examples=5)
@given(seed=st.integers(0, 10**9))
def test_uniform_random_playout_of_to_act_ends(seed):
    """The shared playout driver (to_act only, uniform choice) always reaches the end of a match."""
    from engine.core.playout import random_steps

    state, _, _ = new_match(seed, seed % 97)
    last = state
    for step in random_steps(GAME, state, random.Random(seed), max_steps=200_000):
        last = step.state
    assert GAME.is_finished(last)


@settings(deadline=None, max_examples=20)
@given(seed=st.integers(0, 10**9), table=st.integers(0, 10**6))
def test_advance_and_apply_give_identical_states_and_events(seed, table):
    """`advance` (in place) and `apply` (on a copy) are one implementation: same states, same events,
    same refusals; `apply` never changes its input and a refused `advance` changes nothing."""
    state, players, _ = new_match(seed, table)
    fast = GAME.load(GAME.dump(state))  # an independent copy that only `advance` touches
    rng = random.Random(seed ^ table ^ 0x5EED)
    for step, (player, action, before, after, events) in enumerate(random_walk(state, rng)):
        if step % 5 == 0:  # refusals: judged before any change, identical on both paths
            turn = GAME.to_act(before)[0]
            for attempt in (random_play_attempt(before, turn, rng), {"type": "draw"}, {"type": "pass"}):
                snapshot = GAME.dump(fast)
                slow_result, fast_result = GAME.apply(before, turn, attempt), GAME.advance(fast, turn, attempt)
                assert type(slow_result) is type(fast_result), attempt
                if isinstance(fast_result, Refused):
                    assert (fast_result.code, fast_result.message) == (slow_result.code, slow_result.message)
                    assert GAME.dump(fast) == snapshot
                else:  # an accepted attempt: follow the slow path's state again
                    assert GAME.dump(fast_result.state) == GAME.dump(slow_result.state)
                    assert [e.to_json() for e in fast_result.events] == [e.to_json() for e in slow_result.events]
                    fast = GAME.load(GAME.dump(before))
        assert GAME.dump(fast) == GAME.dump(before)
        result = GAME.advance(fast, player, action)
        assert isinstance(result, Applied)
        assert GAME.dump(result.state) == GAME.dump(after)
        assert result.events == events
        assert [e.to_json() for e in result.events] == [e.to_json() for e in events]
        assert GAME.legal_actions(result.state, player) == GAME.legal_actions(after, player)
        fast = result.state
    assert GAME.is_finished(fast)
