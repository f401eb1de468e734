"""What a seat sees is kept for live tables only: the screens of a table's latest version (one
per seat and language), gone once the table is finished; a press on a keyboard a few moves old
is still known for what it stood for."""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace
from itertools import combinations

import pytest

from engine.registry import available_games
from handlers.i18n import translator
from handlers.moves import TreePress
from handlers.presentation.action_tree import Card, Pick, build_tree
from handlers.presentation.callback_data import TreeNode
from handlers.presentation.render.seat import (
    TREE_KEPT_NODES,
    earlier_move,
    first_moves,
    forget,
    kept_screens,
    kept_tables,
    seen_by,
)
from tables.models import Loaded, Outcome
from tests.render.playouts import play

LANGUAGES = [translator("en"), translator("sw")]


@pytest.mark.parametrize("game_name", available_games())
def test_a_table_keeps_its_latest_screens_and_nothing_once_finished(game_name):
    frames = play(game_name, 3, 4, max_moves=60, timeouts=0)
    first = next(frames)
    forget(first.table.table_id)  # another test's table of the same id
    before = kept_tables()
    for frame in [first, *frames]:
        table, game, state = frame.table, frame.game, frame.state
        for player in table.players:
            for _ in LANGUAGES:
                seen_by(table, game, state, player, _)
        assert kept_screens(table.table_id) == len(table.players) * len(LANGUAGES), "one version's screens"
        assert kept_tables() == before + 1
    # The session ends where it stands (/endsession): its last drawing keeps nothing.
    table.status = "finished"
    seen_by(table, game, state, table.players[0], LANGUAGES[0])
    assert kept_tables() == before and kept_screens(table.table_id) == 0, "a finished table keeps nothing"


def test_a_keyboard_a_move_old_still_says_what_its_buttons_stood_for():
    frames = play("kadi", 3, 2, max_moves=40, timeouts=0)
    first = next(frames)
    table, game, state = first.table, first.game, first.state
    mover = game.to_act(state)[0]
    seen = seen_by(table, game, state, mover, LANGUAGES[0])
    leaf = next(node for node in seen.tree.nodes if node.action is not None)
    action = leaf.action
    later = next(frames)  # the table moved on: the keyboard is an earlier one now
    seen_by(later.table, later.game, later.state, mover, LANGUAGES[0])
    assert earlier_move(later.table, mover, seen.keyboard, leaf.number) == action


def shape(tree):
    return [
        (node.number, node.kind, [(label, child.number) for label, child in node.links], node.marks)
        for node in tree.nodes
    ]


def test_a_keep_five_is_not_kept_but_pressed_as_drawn():
    """Euchre-3's keep five (891 nodes, about 570 KB) is not kept while the maker chooses: it is
    built again from the state for each drawing and press, with the same nodes under the same
    numbers, and a press on it is resolved as before, on the keyboard shown and once the table
    has moved past it (docs/DECISIONS.md)."""
    frames = play("euchre3", 3, 4, max_moves=400)
    frame = next(frame for frame in frames if frame.state.phase == "keep")
    table, game, state = frame.table, frame.game, frame.state
    maker = game.to_act(state)[0]
    forget(table.table_id)
    drawn = seen_by(table, game, state, maker, LANGUAGES[0])
    assert len(drawn.tree.nodes) > TREE_KEPT_NODES
    built, moves, tree = shape(drawn.tree), first_moves(drawn.tree), weakref.ref(drawn.tree)
    screen = (drawn.keyboard, drawn.legal, drawn.prompt)
    del drawn
    elsewhere = replace(table, table_id=table.table_id + 1)  # another table at the same prompt
    seen_by(elsewhere, game, state, maker, LANGUAGES[0])
    assert tree() is None, "a table keeps no tree of that size"
    forget(elsewhere.table_id)
    drawn = seen_by(table, game, state, maker, LANGUAGES[0])
    assert (drawn.keyboard, drawn.legal, drawn.prompt) == screen
    assert shape(drawn.tree) == built and first_moves(drawn.tree) == moves, "the same nodes, the same numbers"
    other = next(player for player in table.players if player != maker)
    assert (
        seen_by(table, game, state, other, LANGUAGES[0]).tree is seen_by(table, game, state, other, LANGUAGES[0]).tree
    )
    leaf = next(node for node in reversed(drawn.tree.nodes) if node.action is not None and node.parent > 0)
    press = TreePress(maker, TreeNode(table.table_id, drawn.keyboard, -leaf.number), LANGUAGES[0])
    assert press.choose(Loaded(table, game, state)) == leaf.action
    branch = drawn.tree.root.links[0][1]
    opened = TreePress(maker, TreeNode(table.table_id, drawn.keyboard, branch.number), LANGUAGES[0])
    assert isinstance(chosen := opened.choose(Loaded(table, game, state)), Outcome) and chosen.ok
    assert earlier_move(table, maker, drawn.keyboard, leaf.number) == leaf.action
    later = next(frames)  # the maker kept five: that keyboard is an earlier one now
    seen_by(later.table, later.game, later.state, maker, LANGUAGES[0])
    assert earlier_move(later.table, maker, drawn.keyboard, leaf.number) == leaf.action
    stale = press.choose(Loaded(later.table, later.game, later.state))
    assert isinstance(stale, Outcome) and not stale.ok and stale.values == {"stale": True}, (
        "told why it no longer stands"
    )


def test_a_dropped_action_tree_is_freed_at_once():
    """A seat's screens are replaced at every move. Links in a tree lead down only (a node names
    the nodes above it by number), so a dropped tree is freed at once: with links both ways each
    waited for the garbage collector's rare full pass, and the memory it held stayed with the
    bot (docs/PERFORMANCE.md)."""
    cards = ["9H", "TH", "JH", "QH", "KH", "AH", "9S"]
    picks = [{"type": "keep", "cards": list(chosen)} for chosen in combinations(cards, 3)]
    runs = [{"type": "play", "cards": cards[:size]} for size in range(1, 4)]

    def paths(action):
        if action["type"] == "keep":
            return [(Pick(tuple(action["cards"])),)]
        return [tuple(Card(card) for card in action["cards"])]

    gc.collect()
    gc.disable()
    try:
        tree = build_tree([*picks, *runs], paths)
        assert any(node.marks for node in tree.nodes) and any(node.start >= 0 for node in tree.nodes)
        del tree
        assert gc.collect() == 0, "nothing left for the collector to find"
    finally:
        gc.enable()
