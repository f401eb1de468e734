"""The meld solver against an exhaustive brute-force search, and its arrangements (T13-A6, section 7)."""

from __future__ import annotations

import random
from collections import Counter

from engine.three_thirteen.melds import (
    SOLVERS_KEPT,
    _solver,
    best_arrangement,
    deadwood_without,
    least_deadwood,
    outable_discards,
)
from engine.three_thirteen.rules import MeldRules, game_deck


def brute_force_deadwood(cards: list[str], rules: MeldRules) -> int:
    """Least deadwood over every way to lay the cards out in valid melds (exhaustive)."""
    n = len(cards)
    valid: dict[int, bool] = {}
    memo: dict[int, int] = {}

    def meld_ok(sub: int) -> bool:
        if sub not in valid:
            valid[sub] = rules.is_valid_meld([cards[j] for j in range(n) if sub >> j & 1])
        return valid[sub]

    def least(mask: int) -> int:
        if not mask:
            return 0
        if mask in memo:
            return memo[mask]
        low = mask & -mask
        first = low.bit_length() - 1
        best = rules.value(cards[first]) + least(mask ^ low)  # the first card stays unmelded
        rest = mask ^ low
        sub = rest
        while True:  # or it melds with any subset of the others
            if meld_ok(sub | low):
                best = min(best, least(mask ^ (sub | low)))
            if not sub:
                break
            sub = (sub - 1) & rest
        memo[mask] = best
        return best

    return least((1 << n) - 1)


def random_case(rng: random.Random, max_cards: int):
    players = rng.choice([2, 3, 4])
    deck = game_deck(players, rng.choice([0, 2, 4]))
    rules = MeldRules(
        wild=rng.randint(3, 13),
        wild_only=rng.random() < 0.4,
        ace_high=rng.random() < 0.4,
        court_rank=rng.random() < 0.3,
    )
    if rng.random() < 0.6:  # few suits and ranks: many melds, duplicates, wild cards
        suits = rng.sample("SHDC", rng.randint(1, 2))
        low = rng.randint(1, 9)
        ranks = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
        order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        ranks = set(order[low - 1 : low + 4]) | {order[rules.wild - 1]}
        deck = [c for c in deck if c == "X" or (c[-1] in suits and c[:-1] in ranks) or c[:-1] == order[rules.wild - 1]]
    cards = rng.sample(deck, min(rng.randint(1, max_cards), len(deck)))
    return cards, rules


def test_solver_agrees_with_brute_force_on_a_thousand_hands():
    """T13-A6: the least deadwood equals the exhaustive search's, on 3,000 hands of up to 10 cards."""
    rng = random.Random(2024)
    for _ in range(1000):
        cards, rules = random_case(rng, 10)
        assert least_deadwood(cards, rules) == brute_force_deadwood(cards, rules), (cards, rules)


def test_arrangements_are_valid_and_use_every_card():
    """The arrangement shown to a player is valid melds plus deadwood worth what the solver says."""
    rng = random.Random(7)
    for _ in range(600):
        cards, rules = random_case(rng, 14)
        arrangement = best_arrangement(cards, rules)
        assert all(rules.is_valid_meld(list(meld)) for meld in arrangement.melds), (cards, arrangement)
        laid = [card for meld in arrangement.melds for card in meld] + list(arrangement.deadwood_cards)
        assert Counter(laid) == Counter(cards)
        assert arrangement.deadwood == sum(map(rules.value, arrangement.deadwood_cards))
        assert arrangement.deadwood == least_deadwood(cards, rules)


def test_go_out_discards_agree_with_brute_force():
    """T13-A4: a discard goes out exactly when the other cards meld with nothing left."""
    rng = random.Random(99)
    checked = 0
    for _ in range(600):
        cards, rules = random_case(rng, 9)
        if len(cards) < 4:
            continue
        outs = outable_discards(cards, rules)
        left = deadwood_without(cards, rules)
        for card in set(cards):
            rest = list(cards)
            rest.remove(card)
            expected = brute_force_deadwood(rest, rules)
            assert (card in outs) == (expected == 0), (cards, card, rules)
            assert left[card] == expected
            checked += expected == 0
    assert checked > 100  # the sample really contains hands that go out


def test_two_packs_duplicates_and_jokers():
    """T13-A3 and section 8: identical cards in a set; jokers wild; a 13-card run with wilds."""
    rules = MeldRules(wild=13)
    assert least_deadwood(["9C", "9C", "9D"], rules) == 0
    assert least_deadwood(["9C", "9C", "10C"], rules) == 9 + 9 + 10
    assert least_deadwood(["9C", "9C", "10C", "KS"], rules) == 9  # 9C-10C-K, 9C left
    run = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "X", "KH"]
    assert least_deadwood(run, rules) == 0
    assert least_deadwood(run + ["KD"], rules) == 0  # a 14th card: the spare wild still fits
    assert best_arrangement(run + ["KD"], rules).deadwood == 0
    assert least_deadwood(["X", "X", "KS"], rules) == 40 + 10
    assert least_deadwood(["X", "X", "KS"], MeldRules(wild=13, wild_only=True)) == 0


def test_worst_case_hands_are_solved_quickly():
    """A hand of one suit with many wild cards and two packs still solves (no blow-up)."""
    rules = MeldRules(wild=7, ace_high=True, wild_only=True)
    cards = ["AS", "2S", "3S", "4S", "5S", "6S", "8S", "9S", "10S", "7H", "7D", "X", "X", "7S"]
    assert least_deadwood(cards, rules) == 0
    assert outable_discards(cards, rules) == set(cards)


def test_solved_hands_kept_stay_bounded_however_many_hands_are_solved():
    rng = random.Random(7)
    deck = game_deck(2, 0)
    for _ in range(SOLVERS_KEPT * 4):
        least_deadwood(rng.sample(deck, 11), MeldRules(wild=5))
    assert _solver.cache_info().currsize <= SOLVERS_KEPT
