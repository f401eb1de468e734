"""A finished table's standings (who placed where, partners together) and how ratings move."""

from __future__ import annotations

import random

import pytest

from engine.core.options import options_dict, parse_options
from engine.core.serialize import state_to_json
from engine.registry import GAME_MODULES, get_game
from tables.models import CANCELLED, FINISHED, Seat, TableRow
from tables.records import Standing, ordinal, rate, standings

SEATS = [Seat(101, "Amina"), Seat(102, "Baraka"), Seat(103, "Chausiku"), Seat(104, "Daudi")]


def played(game_name: str, options: dict, count: int, seed: int, until=None) -> tuple[TableRow, object]:
    """A match of random legal moves (going out whenever a game offers it) as a closed table."""
    game = get_game(game_name)
    parsed = parse_options(game.Options, options)
    seats = SEATS[:count]
    state = game.new([seat.player for seat in seats], parsed, f"seed-{seed}")
    rng = random.Random(seed)
    while not game.is_finished(state) and not (until and until(game, state)):
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        out = [action for action in legal if action["type"] == "go_out"]
        state = game.apply(state, player, out[0] if out else rng.choice(legal)).state
    table = TableRow(table_id=1, chat_id=-5, thread_id=0, game=game_name, status=FINISHED, creator_id=101,
                     options=options_dict(parsed), turn_seconds=0, seats=list(seats), seed=f"seed-{seed}",
                     state=state_to_json(game, state))  # fmt: skip
    return table, state


def by_user(rows: list[Standing]) -> dict[int, Standing]:
    return {row.user_id: row for row in rows}


MATCHES = {
    "kadi": ({"points_limit": 60}, 4),
    "pitch": ({}, 3),
    "euchre3": ({}, 3),
    "three_thirteen": ({}, 2),
}


def test_every_game_is_ranked_one_way_or_played_in_sessions():
    sessions = {name for name in GAME_MODULES if get_game(name).plays_in_sessions}
    assert set(MATCHES) | sessions == set(GAME_MODULES), "a new game: add a match here"


@pytest.mark.parametrize("game_name", sorted(MATCHES))
def test_winners_come_first_then_everyone_by_the_games_totals(game_name):
    options, count = MATCHES[game_name]
    table, state = played(game_name, options, count, seed=2)
    game = get_game(game_name)
    rows = standings(table)
    winners = {int(player) for player in game.winners(state)}
    assert {row.user_id for row in rows if row.place == 1} == winners
    better = min if game.lower_totals_win else max
    assert better(row.score for row in rows) in {row.score for row in rows if row.place == 1}, (
        "the winners hold the best total: does the game say which way its totals rank?"
    )
    others = sorted((row for row in rows if row.place > 1), key=lambda row: row.place)
    totals = [row.score for row in others]
    assert totals == sorted(totals, reverse=not game.lower_totals_win)
    for row in rows:
        assert row.place == 1 + sum(other.place < row.place for other in rows), "tied players share a place"


def test_partners_share_their_place_and_team():
    table, state = played("pitch", {"partnerships": True}, 4, seed=7)
    rows = by_user(standings(table))
    amina, baraka, chausiku, daudi = (rows[seat.user_id] for seat in SEATS)
    assert amina.team == chausiku.team != baraka.team == daudi.team, "partners sit opposite"
    assert amina.place == chausiku.place and baraka.place == daudi.place
    assert {amina.place, baraka.place} == {1, 3}, "two players share first place, the next place is third"


def test_a_lopti_session_counts_once_a_round_was_won():
    table, state = played("lopti", {}, 3, seed=7, until=lambda game, state: game.round_number(state) > 1)
    assert standings(table) is None, "a session counts only when it ended"
    table.closed_reason = "session_ended"
    rows = standings(table)
    round_winner = next(int(player) for player, wins in get_game("lopti").scores(state).items() if wins == 1)
    assert [row.user_id for row in rows if row.place == 1] == [round_winner]
    assert sorted(row.place for row in rows) == [1, 2, 2]

    fresh, _state = played("lopti", {}, 3, seed=7, until=lambda game, state: True)
    fresh.closed_reason = "session_ended"
    assert standings(fresh) is None, "a session ended before anyone won a round"


def test_abandoned_and_cancelled_matches_do_not_count():
    second_round = lambda game, state: game.round_number(state) > 1  # noqa: E731
    table, _state = played("kadi", {"points_limit": 60}, 3, seed=3, until=second_round)
    table.closed_reason = "session_ended"
    assert standings(table) is None, "/endsession before the match ended"
    finished, _state = played("kadi", {"points_limit": 60}, 3, seed=3)
    finished.status, finished.closed_reason = CANCELLED, "cancelled"
    assert standings(finished) is None


def test_a_four_player_result_moves_ratings_in_the_order_of_places():
    rows = [Standing(0, 101, 2, 30), Standing(1, 102, 1, 0), Standing(2, 103, 2, 30), Standing(3, 104, 4, 80)]
    after = rate(rows, {})
    mus = {user: mu for user, (mu, _sigma) in after.items()}
    assert mus[102] > 25 > mus[104], "the winner rises from the prior and the last falls"
    assert mus[102] > mus[101] == mus[103] > mus[104], "players who shared a place move alike"
    assert all(sigma < 25 / 3 for _mu, sigma in after.values()), "every result makes the model surer"

    # The same result again, from where they stand now: the winner keeps climbing.
    again = rate(rows, after)
    assert again[102][0] > after[102][0] and again[104][0] < after[104][0]


def test_an_upset_moves_ratings_more_than_an_expected_result():
    strong, weak = (30.0, 3.0), (20.0, 3.0)
    expected = rate([Standing(0, 1, 1, 0), Standing(1, 2, 2, 10)], {1: strong, 2: weak})
    upset = rate([Standing(0, 1, 2, 10), Standing(1, 2, 1, 0)], {1: strong, 2: weak})
    assert upset[2][0] - weak[0] > expected[1][0] - strong[0] > 0


def test_a_team_result_moves_partners_together():
    rows = [Standing(0, 101, 1, 11, team=0), Standing(1, 102, 3, 5, team=1),
            Standing(2, 103, 1, 11, team=0), Standing(3, 104, 3, 5, team=1)]  # fmt: skip
    before = {101: (25.0, 8.0), 103: (30.0, 4.0)}
    after = rate(rows, before)
    assert after[101][0] > 25.0 and after[103][0] > 30.0, "both winners rise"
    assert after[102][0] < 25.0 and after[104][0] < 25.0, "both losers fall"
    assert after[101][0] - 25.0 > after[103][0] - 30.0, "the less certain partner moves more"
    # A team is one side: two against two, not four players each on their own.
    alone = rate([Standing(row.seat, row.user_id, row.place, row.score) for row in rows], before)
    assert alone != after


def test_the_rating_players_see_is_a_skill_we_are_fairly_sure_of():
    assert ordinal(25.0, 25 / 3) == pytest.approx(0.0)
    assert ordinal(30.0, 2.0) > ordinal(32.0, 4.0)
