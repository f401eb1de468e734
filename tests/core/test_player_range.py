"""How many players each game seats is a fact of its engine, and depends on the table's options."""

from __future__ import annotations

import pytest

from engine.core.options import parse_options
from engine.core.protocol import CHAMPION_WINDOW, VOTE_WINDOW
from engine.registry import available_games, get_game

# The ranges the rules give (kadi.md KAD-A2, pitch.md, lopti.md, euchre3.md, three_thirteen.md).
EXPECTED = {
    ("kadi", ()): (2, 6),
    ("kadi", (("hand_size", 6),)): (2, 7),
    ("kadi", (("hand_size", 5),)): (2, 7),
    ("kadi", (("hand_size", 8),)): (2, 6),
    ("pitch", ()): (2, 7),
    ("pitch", (("partnerships", True),)): (4, 4),
    ("lopti", ()): (2, 5),
    ("euchre3", ()): (3, 3),
    ("three_thirteen", ()): (2, 4),
}


@pytest.mark.parametrize(("game", "options"), sorted(EXPECTED))
def test_each_game_says_how_many_its_options_seat(game, options):
    engine = get_game(game)
    assert engine.player_range(parse_options(engine.Options, dict(options))) == EXPECTED[(game, options)]


@pytest.mark.parametrize(("game", "options"), sorted(EXPECTED))
def test_a_match_deals_to_exactly_the_range(game, options):
    engine = get_game(game)
    parsed = parse_options(engine.Options, dict(options))
    low, high = engine.player_range(parsed)
    assert engine.min_players <= low <= high <= engine.max_players
    for count in range(1, 9):
        players = [f"p{index}" for index in range(count)]
        if low <= count <= high:
            engine.new(players, parsed, seed=1)
        else:
            assert engine.player_count_problem(players, parsed)
            with pytest.raises(ValueError):
                engine.new(players, parsed, seed=1)


def test_every_game_is_covered():
    assert {game for game, _options in EXPECTED} == set(available_games())


@pytest.mark.parametrize("game", available_games())
def test_each_game_says_its_usual_table_and_which_way_its_totals_rank(game):
    """A game's own facts, read by practice tables and records: no default stands in for them."""
    engine = get_game(game)
    low, high = engine.player_range(parse_options(engine.Options, {}))
    assert low <= engine.usual_players <= high
    assert type(engine.lower_totals_win) is bool and type(engine.plays_in_sessions) is bool
    assert set(engine.clock_windows.values()) <= {VOTE_WINDOW, CHAMPION_WINDOW}
