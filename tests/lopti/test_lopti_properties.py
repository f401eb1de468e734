"""Property tests over random seeds and option sets: card conservation, offered actions accepted,
refusals change nothing, every round ends, replays reproduce, JSON round trips behave the same."""

from __future__ import annotations

import json
import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import CLOCK, Applied, Refused
from engine.lopti import GAME
from engine.lopti.rules import DECK, VALUE, sort_cards

from .test_lopti_support import FIVE, FULL_DECK, card_places, random_action, random_options

MAX_STEPS_PER_ROUND = 20_000


def wrong_actions(state, rng: random.Random):
    """A few well-formed actions, most of which the rules do not allow now."""
    players = state.players
    for _ in range(3):
        player = rng.choice(players)
        yield (
            player,
            rng.choice(
                [
                    {"type": "play", "cards": rng.sample(DECK, rng.randint(1, 3))},
                    {"type": "take"},
                    {"type": "flip", "position": rng.randint(-1, 3)},
                    {"type": "swap", "hand": rng.choice(DECK), "face_up": rng.choice(DECK)},
                    {"type": "ready"},
                    {"type": "no_rule"},
                    {"type": "delete_rule", "rule": rng.randint(0, 3)},
                    {"type": "author_rule", "rule": {"text": ""}},
                ]
            ),
        )


def candidate_actions(state, player: str) -> list[dict]:
    """Every well-formed action of `player` worth trying now: all one-rank plays from the hand, etc."""
    seat = state.players.index(player)
    candidates = [{"type": "take"}, {"type": "ready"}, {"type": "no_rule"}]
    candidates += [{"type": "flip", "position": position} for position in range(-1, 4)]
    candidates += [{"type": "delete_rule", "rule": rule} for rule in range(state.next_rule_id + 1)]
    by_rank: dict[int, list[str]] = {}
    for card in state.hands[seat]:
        by_rank.setdefault(VALUE[card], []).append(card)
    for cards in by_rank.values():
        cards = sort_cards(cards)
        for count in range(1, len(cards) + 1):
            candidates += [{"type": "play", "cards": list(combo)} for combo in combinations(cards, count)]
    for hand_card in state.hands[seat]:
        for up_card in state.face_up[seat]:
            candidates.append({"type": "swap", "hand": hand_card, "face_up": up_card})
    return candidates


def assert_offered_is_exact(state) -> None:
    """`legal_actions` lists exactly the actions `apply` accepts (complete and exact)."""
    for player in state.players:
        accepted = {
            json.dumps(action, sort_keys=True)
            for action in candidate_actions(state, player)
            if isinstance(GAME.apply(state, player, action), Applied)
        }
        offered = {json.dumps(action, sort_keys=True) for action in GAME.legal_actions(state, player)}
        assert accepted == offered, (player, accepted ^ offered)


def play_session(seed: int, count: int, options: dict, rounds: int, checks: bool):
    """Random legal play until `rounds` rounds have ended; returns (final state, recorded actions)."""
    rng = random.Random(seed)
    players = FIVE[:count]
    state = GAME.new(players, GAME.Options(**options), seed)
    record = []
    steps_this_round = 0
    while state.round <= rounds:
        steps_this_round += 1
        assert steps_this_round < MAX_STEPS_PER_ROUND, "a round did not end"
        if checks:
            assert card_places(state) == FULL_DECK
            snapshot = GAME.dump(state)
            for player in players:
                for action in GAME.legal_actions(state, player):
                    result = GAME.apply(state, player, action)
                    assert isinstance(result, Applied), (player, action, result)
                    if player not in GAME.to_act(state):
                        assert action["type"] == "delete_rule"
            for player, action in wrong_actions(state, rng):
                result = GAME.apply(state, player, action)
                if isinstance(result, Refused):
                    assert result.code and result.message
            if rng.random() < 0.1:
                assert_offered_is_exact(state)
            assert GAME.dump(state) == snapshot, "apply changed its input state"
            if rng.random() < 0.05:
                loaded = GAME.load(json.loads(json.dumps(GAME.dump(state))))
                assert loaded == state
                for player in players + [CLOCK]:
                    assert GAME.legal_actions(loaded, player) == GAME.legal_actions(state, player)
                assert GAME.view(loaded, players[0]) == GAME.view(state, players[0])
                state = loaded
        player, action = random_action(state, rng)
        result = GAME.apply(state, player, action)
        assert isinstance(result, Applied), (player, action, result)
        record.append((player, action))
        if result.state.round != state.round:
            steps_this_round = 0
        state = result.state
    return state, record


option_sets = st.builds(lambda seed: random_options(random.Random(seed)), st.integers(0, 10**6))


@settings(deadline=None, max_examples=4)
@given(seed=st.integers(0, 10**9), count=st.integers(2, 5), options=option_sets)
def test_random_sessions_keep_every_invariant(seed, count, options):
    """Cards conserved, offered actions accepted, refusals and applies leave the input unchanged,
    JSON round trips behave the same, and every round ends."""
    state, _ = play_session(seed, count, options, rounds=2, checks=True)
    assert state.round == 3 and sum(GAME.scores(state).values()) == 2


@settings(deadline=None, max_examples=12)
@given(seed=st.integers(0, 10**9), count=st.integers(2, 5), options=option_sets)
def test_replaying_the_recorded_actions_reproduces_the_session(seed, count, options):
    """The same seed and actions give the same state (randomness only from the seed)."""
    state, record = play_session(seed, count, options, rounds=2, checks=False)
    again = GAME.new(FIVE[:count], GAME.Options(**options), seed)
    for player, action in record:
        again = GAME.apply(again, player, action).state
    assert again == state
    assert GAME.dump(again) == GAME.dump(state)
