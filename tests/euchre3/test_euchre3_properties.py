"""Random-play properties over seeds and option sets: card conservation, legal actions accepted,
refusals harmless, matches end, replays reproduce, states survive JSON."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied, Refused
from engine.euchre3 import GAME
from engine.euchre3.ranking import DECKS

PLAYERS = ("amina", "baraka", "chausiku")

options_sets = st.fixed_dictionaries(
    {},
    optional={
        "dealer_must_pick_up": st.booleans(),
        "turned_down_suit": st.booleans(),
        "stick_the_dealer": st.booleans(),
        "lone_defenders": st.sampled_from(["allowed", "off", "vs_lone_maker"]),
        "lone_maker_bonus": st.booleans(),
        "deck": st.sampled_from([24, 32]),
        "target": st.sampled_from([5, 7, 10, 11, 15]),
        "simultaneous_win": st.sampled_from(["shared", "play_on"]),
    },
)


def all_cards(state) -> Counter:
    """Every card in every place of the state."""
    places = list(state.hands) + list(state.discards) + [state.kitty, state.dead, state.played]
    places.append(state.dummy or ())
    places.append(tuple(card for _, card in state.trick))
    return Counter(card for place in places for card in place)


def play_match(options, seed, rng, timeouts=0.1, junk_every=7):
    """Play to the end with random legal actions (and some timeouts); check every step."""
    state = GAME.new(PLAYERS, options, seed)
    deck = Counter(GAME.deck(options, PLAYERS))
    log = []
    for count in range(20_000):
        assert all_cards(state) == deck
        if GAME.is_finished(state):
            return state, log
        (player,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, player)
        assert legal
        if count % junk_every == 0:
            check_refusals_change_nothing(state, player, legal, rng)
        if rng.random() < timeouts:
            player, action = CLOCK, {"type": "timeout"}
        else:
            action = rng.choice(legal)
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied), (action, result)
        log.append((player, action))
        state = result.state
    raise AssertionError("match did not end")


def vocabulary(state, rng):
    """Every action of the vocabulary that could matter now (keep: a sample of five-card sets)."""
    actions = [{"type": kind} for kind in ("accept", "pass", "leave", "with_dummy", "alone")]
    actions += [{"type": "name", "suit": suit} for suit in "SHDC"]
    for card in DECKS[32]:
        actions += [
            {"type": "play", "card": card},
            {"type": "pick_up", "discard": card},
            {"type": "alone", "discard": card},
        ]
    if state.phase == "keep":
        pool = list(state.hands[state.turn] + state.dummy)
        for _ in range(10):
            actions.append({"type": "keep", "cards": rng.sample(pool, 5)})
            actions.append({"type": "keep", "cards": rng.sample(pool, 4) + [rng.choice(DECKS[32])]})
            actions.append({"type": "keep", "cards": rng.sample(pool, rng.choice([4, 6]))})
    return actions


def check_refusals_change_nothing(state, player, legal, rng):
    """legal_actions is exact: an action is accepted iff it is offered; refusals change nothing."""
    before = copy.deepcopy(GAME.dump(state))
    offered = [sorted(a.get("cards", [])) for a in legal if a["type"] == "keep"]
    for action in vocabulary(state, rng):
        for who in PLAYERS:
            result = GAME.apply(state, who, action)
            if action["type"] == "keep":
                expected = who == player and sorted(action["cards"]) in offered
            else:
                expected = who == player and action in legal
            assert isinstance(result, Applied) == expected, (who, action, result)
            if isinstance(result, Refused):
                assert result.code and result.message
    assert GAME.dump(state) == before


@settings(deadline=None, max_examples=20)
@given(options=options_sets, seed=st.integers(0, 10**9))
def test_random_matches_keep_every_card_and_end(options, seed):
    parsed = GAME.Options(**options)
    state, log = play_match(parsed, seed, random.Random(seed))
    assert GAME.is_finished(state) and GAME.winners(state)
    scores = GAME.scores(state)
    assert all(scores[w] >= parsed.target for w in GAME.winners(state))
    assert GAME.to_act(state) == []


@settings(deadline=None, max_examples=25)
@given(options=options_sets, seed=st.integers(0, 10**9))
def test_replaying_the_actions_reproduces_the_match(options, seed):
    parsed = GAME.Options(**options)
    final, log = play_match(parsed, seed, random.Random(seed + 1), junk_every=10**9)
    state = GAME.new(PLAYERS, parsed, seed)
    for player, action in log:
        state = GAME.apply(state, player, action).state
    assert GAME.dump(state) == GAME.dump(final)
    assert GAME.winners(state) == GAME.winners(final) and GAME.scores(state) == GAME.scores(final)


@settings(deadline=None, max_examples=10)
@given(options=options_sets, seed=st.integers(0, 10**9))
def test_state_survives_a_json_round_trip_at_every_step(options, seed):
    parsed = GAME.Options(**options)
    rng = random.Random(seed)
    state = GAME.new(PLAYERS, parsed, seed)
    while not GAME.is_finished(state):
        loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
        assert loaded == state
        (player,) = GAME.to_act(state)
        assert GAME.legal_actions(loaded, player) == GAME.legal_actions(state, player)
        assert GAME.view(loaded, player) == GAME.view(state, player)
        action = rng.choice(GAME.legal_actions(state, player))
        original = GAME.apply(state, player, action)
        reloaded = GAME.apply(loaded, player, action)
        assert GAME.dump(original.state) == GAME.dump(reloaded.state)
        assert [e.to_json() for e in original.events] == [e.to_json() for e in reloaded.events]
        state = original.state


@settings(deadline=None, max_examples=10)
@given(seed=st.integers(0, 10**9))
def test_old_state_stays_valid_after_apply(seed):
    """apply never mutates its input: an old state can be continued differently."""
    rng = random.Random(seed)
    state = GAME.new(PLAYERS, GAME.Options(), seed)
    history = []
    while not GAME.is_finished(state):
        history.append((state, GAME.dump(state)))
        (player,) = GAME.to_act(state)
        state = GAME.apply(state, player, rng.choice(GAME.legal_actions(state, player))).state
    for old, dumped in history:
        assert GAME.dump(old) == dumped
    old, _ = rng.choice(history)
    (player,) = GAME.to_act(old)
    for action in GAME.legal_actions(old, player):
        assert isinstance(GAME.apply(old, player, action), Applied)


@settings(deadline=None, max_examples=15)
@given(options=options_sets, seed=st.integers(0, 10**9))
def test_in_place_advance_matches_apply(options, seed):
    """advance (the in-place fast path) gives the same states and events as apply, and a refused
    advance leaves the state as it was."""
    parsed = GAME.Options(**options)
    rng = random.Random(seed)
    state = GAME.new(PLAYERS, parsed, seed)
    fast = GAME.load(GAME.dump(state))
    while not GAME.is_finished(state):
        (player,) = GAME.to_act(state)
        wrong = next(p for p in PLAYERS if p != player)
        before = GAME.dump(fast)
        assert isinstance(GAME.advance(fast, wrong, {"type": "pass"}), Refused)
        assert isinstance(GAME.advance(fast, player, {"type": "play", "card": "2H"}), Refused)
        assert GAME.dump(fast) == before
        if rng.random() < 0.1:
            player, action = CLOCK, {"type": "timeout"}
        else:
            action = rng.choice(GAME.legal_actions(state, player))
        slow = GAME.apply(state, player, action)
        quick = GAME.advance(fast, player, action)
        assert GAME.dump(slow.state) == GAME.dump(quick.state)
        assert [e.to_json() for e in slow.events] == [e.to_json() for e in quick.events]
        state, fast = slow.state, quick.state
