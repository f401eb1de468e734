"""Seeded shuffles and picks: exactly what Python's `random` gives for the same label, always."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.core import rng
from engine.core.rng import pick, rng_for, shuffled

seeds = st.one_of(st.integers(), st.text(max_size=12))
labels = st.lists(st.one_of(st.integers(min_value=0, max_value=99), st.sampled_from(["deal", "reshuffle"])), max_size=3)


def test_the_fast_functions_are_the_ones_in_use_on_this_interpreter():
    # If this fails, deals are still right (the reference is used) but every playout is slower.
    assert rng.FAST


@given(seeds, labels, st.integers(min_value=0, max_value=400))
def test_a_shuffle_is_the_order_random_shuffle_gives_for_the_same_label(seed, extra, size):
    items = [f"c{i}" for i in range(size)]
    expected = list(items)
    random.Random("/".join(str(part) for part in (seed, *extra))).shuffle(expected)
    assert shuffled(items, seed, *extra) == expected
    assert shuffled(tuple(items), seed, *extra) == expected


@given(seeds, labels, st.integers(min_value=1, max_value=40))
def test_a_pick_is_the_item_random_choice_gives_for_the_same_label(seed, extra, size):
    items = [f"p{i}" for i in range(size)]
    assert pick(items, seed, *extra) == rng_for(seed, *extra).choice(items)


def test_a_shuffle_leaves_its_input_alone():
    items = ["a", "b", "c", "d"]
    shuffled(items, 1, "deal", 1)
    assert items == ["a", "b", "c", "d"]
