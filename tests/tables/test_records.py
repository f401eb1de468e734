"""Records kept from the stored matches: a scripted series gives the leaderboard and each player's
record; they are written with the move that ends a match, rebuilt to the same numbers, built by
the migration for matches played before it, and a match's replay file plays it back exactly."""

from __future__ import annotations

import asyncio
import random
import shutil

import pytest
import pytest_asyncio

from engine.core.serialize import state_from_json
from engine.registry import get_game
from engine.replay import parse_replay, run_replay
from tables import records as records_module
from tables.database import connect, is_postgresql
from tables.models import FINISHED
from tables.records import RATING_FORMULA, ordinal
from tables.store import MIGRATIONS, Store
from tables.transfer import copy_rows
from tests.conftest import postgres_database
from tests.kadi.test_kadi_helpers import build_deck
from tests.tables.matches import (
    AMINA,
    BARAKA,
    CHAUSIKU,
    DAUDI,
    GROUP,
    OTHER_GROUP,
    QUICK_KADI,
    ROBOT,
    open_service,
    play_match,
    play_random_match,
    seat_table,
)

pytestmark = pytest.mark.asyncio

# (players in seat order, the winner): Amina wins five of seven, the last four in a row.
SERIES = [
    ([AMINA, BARAKA, CHAUSIKU], AMINA),
    ([AMINA, BARAKA], BARAKA),
    ([AMINA, BARAKA, ROBOT], BARAKA),
    ([BARAKA, AMINA], AMINA),
    ([AMINA, BARAKA], AMINA),
    ([AMINA, BARAKA, CHAUSIKU], AMINA),
    ([AMINA, ROBOT, BARAKA], AMINA),
]


async def _play_series(path: str) -> list:
    service = await open_service(path)
    tables = [await play_match(service, GROUP, seats, winner) for seats, winner in SERIES]
    tables.append(await play_match(service, OTHER_GROUP, [BARAKA, DAUDI], BARAKA))
    await service.store.close()
    return tables


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def series_played(request, tmp_path_factory):
    """The series above in one group, and Baraka beating Daudi in another group last (played
    once per database kind: each test gets its own copy of the database)."""
    if request.param == "sqlite":
        path = str(tmp_path_factory.mktemp("series") / "karata.db")
    else:
        path = postgres_database(request)
    return path, asyncio.run(_play_series(path))


@pytest_asyncio.fixture
async def series(series_played, tmp_path, request):
    played, tables = series_played
    if is_postgresql(played):
        path = request.getfixturevalue("postgres").new_database(template=played)
    else:
        path = str(tmp_path / "karata.db")
        shutil.copy(played, path)
    service = await open_service(path)
    yield service, tables
    await service.store.close()


def totals(table) -> dict[int, int]:
    game = get_game(table.game)
    return {int(player): score for player, score in game.scores(state_from_json(game, table.state)).items()}


async def snapshot(store: Store) -> tuple[list[tuple], list[tuple]]:
    results = [tuple(row) for row in await store._all("SELECT * FROM results ORDER BY table_id, seat")]
    ratings = [tuple(row) for row in await store._all("SELECT * FROM ratings ORDER BY chat_id, game, user_id")]
    return results, ratings


async def test_the_leaderboard_of_a_scripted_series(series):
    service, _tables = series
    board = await service.store.records.board(GROUP, "kadi")
    assert [(ranked.name, ranked.matches) for ranked in board.ranked] == [("Amina", 7), ("Baraka", 7)]
    assert board.ranked[0].rating > board.ranked[1].rating
    assert [(ranked.name, ranked.matches) for ranked in board.provisional] == [("Chausiku", 2)], "fewer than 5"
    assert [(ranked.name, ranked.matches) for ranked in board.computers] == [("Roboti Juma", 2)], "listed apart"
    assert (await service.store.records.board(OTHER_GROUP, "kadi")).provisional[0].name == "Baraka"
    assert (await service.store.records.board(GROUP, "pitch")).ranked == []


@pytest.mark.parametrize("recent", [32, 2], ids=["a streak within the latest results", "a longer streak"])
async def test_a_players_record_in_a_group_and_everywhere(series, monkeypatch, recent):
    monkeypatch.setattr(records_module, "RECENT", recent)
    service, tables = series
    records = service.store.records
    [amina] = await records.of_player(AMINA.user_id, GROUP)
    assert (amina.game, amina.played, amina.won, amina.streak) == ("kadi", 7, 5, 4)
    assert amina.best == min(totals(table)[AMINA.user_id] for table in tables if table.seat_of(AMINA.user_id))
    board = await records.board(GROUP, "kadi")
    assert amina.rating == board.ranked[0].rating

    [baraka_here] = await records.of_player(BARAKA.user_id, GROUP)
    assert (baraka_here.played, baraka_here.won, baraka_here.streak) == (7, 2, -4), "four matches without a win"
    [baraka_everywhere] = await records.of_player(BARAKA.user_id, None)
    assert (baraka_everywhere.played, baraka_everywhere.won, baraka_everywhere.streak) == (8, 3, 1)
    assert baraka_everywhere.rating != baraka_here.rating, "all groups together have their own rating"
    assert await records.of_player(DAUDI.user_id, GROUP) == []


async def test_a_player_who_opts_out_is_listed_as_a_player(series):
    service, _tables = series
    await service.store.set_stats_hidden(BARAKA.user_id, True)
    board = await service.store.records.board(GROUP, "kadi")
    assert [ranked.name for ranked in board.ranked] == ["Amina", None]
    assert await service.store.records.hidden(BARAKA.user_id)
    await service.store.set_stats_hidden(BARAKA.user_id, False)
    assert [ranked.name for ranked in (await service.store.records.board(GROUP, "kadi")).ranked] == ["Amina", "Baraka"]


async def test_the_history_lists_the_last_matches_newest_first(series):
    service, tables = series
    history = await service.store.records.history(GROUP, limit=3)
    assert [match.table_id for match in history] == [table.table_id for table in tables[-2:-5:-1]]
    last = history[0]
    assert [seat.name for seat in last.seats] == ["Amina", "Roboti Juma", "Baraka"]
    assert [seat.name for seat in last.winners] == ["Amina"]
    assert {seat.user_id: seat.score for seat in last.seats} == totals(tables[-2])


async def test_records_are_written_with_the_move_that_ends_the_match(database):
    service = await open_service(database)
    table = await play_match(service, GROUP, [AMINA, BARAKA], BARAKA)
    rows = await service.store._all("SELECT user_id, place FROM results WHERE table_id = ?", (table.table_id,))
    assert sorted(tuple(row) for row in rows) == [(AMINA.user_id, 2), (BARAKA.user_id, 1)]
    last_action = await service.store._one("SELECT applied_at FROM actions WHERE table_id = ? ORDER BY version DESC",
                                           (table.table_id,))  # fmt: skip
    finished_at = await service.store._one("SELECT finished_at FROM results WHERE table_id = ?", (table.table_id,))
    assert finished_at[0] == last_action[0], "one transaction: the same moment as the last move"
    await service.store.close()


async def test_cancelled_and_abandoned_tables_leave_no_record_and_a_session_with_a_round_does(database):
    service = await open_service(database)
    table = await seat_table(service, GROUP, [AMINA, BARAKA], "kadi", QUICK_KADI)
    assert (await service.lobby.cancel(table.table_id, AMINA.user_id, False)).ok
    table = await seat_table(service, GROUP, [AMINA, BARAKA], "kadi", QUICK_KADI)
    assert (await service.lobby.end_session(table.table_id, AMINA.user_id, False)).ok
    assert await service.store.records.history(GROUP) == []

    rng = random.Random(6)
    service.lobby.new_seed = lambda: "series-6"  # a deal whose first round random moves finish quickly
    lopti = await seat_table(service, GROUP, [AMINA, BARAKA], "lopti", {})
    while True:
        loaded = await service.load(lopti.table_id)
        if loaded.game.round_number(loaded.state) > 1:
            break
        player = loaded.game.to_act(loaded.state)[0]
        choice = rng.choice(loaded.game.legal_actions(loaded.state, player))
        assert (await service.play.act(lopti.table_id, player, loaded.table.version, choice)).ok
    assert (await service.lobby.end_session(lopti.table_id, None, True)).ok, "the idle timer ends the session"
    [session] = await service.store.records.history(GROUP)
    assert session.game == "lopti" and len(session.winners) == 1 and session.winners[0].score == 1
    await service.store.close()


async def test_a_rebuild_gives_the_same_records(series):
    service, _tables = series
    store = service.store
    before = await snapshot(store)
    await store._write("UPDATE records_built SET formula = 0")
    await store.close()
    await store.open()
    assert await snapshot(store) == before
    assert (await store._one("SELECT formula FROM records_built"))[0] == RATING_FORMULA


async def test_the_migration_builds_records_for_matches_played_before_it(series, tmp_path, request):
    service, _tables = series
    store = service.store
    expected = await snapshot(store)
    assert expected[0] and expected[1]

    # A database of the same kind as the bot before migration 6 left it: migrations 1-5, then
    # the same matches.
    old = request.getfixturevalue("postgres").new_database() if is_postgresql(store.path) else str(tmp_path / "old.db")
    before = connect(old)
    await before.open(MIGRATIONS[:5])
    await copy_rows(store.database, before, ["chats", "users", "tables", "actions"])
    await before.close()
    await store.close()

    migrated = Store(old)
    await migrated.open()
    version = "SELECT version FROM karata_schema" if is_postgresql(old) else "PRAGMA user_version"
    assert (await migrated._one(version))[0] == len(MIGRATIONS) == 12, "migrated to the end"
    assert await snapshot(migrated) == expected
    await migrated.close()


async def test_a_failure_while_recording_keeps_the_move_and_rebuilds_at_the_next_start(database, monkeypatch):
    service = await open_service(database)

    def broken(table):
        raise RuntimeError("a bug in the records")

    monkeypatch.setattr(records_module, "standings", broken)
    table = await play_match(service, GROUP, [AMINA, BARAKA], AMINA)
    assert (await service.store.get_table(table.table_id)).status == FINISHED, "the last move is kept"
    assert await service.store.records.history(GROUP) == []
    monkeypatch.undo()
    await service.store.close()
    await service.store.open()
    [match] = await service.store.records.history(GROUP)
    assert match.table_id == table.table_id
    await service.store.close()


@pytest.mark.parametrize("fixed_deal", [False, True], ids=["dealt from the seed", "a fixed deal"])
async def test_a_replay_file_plays_the_match_back_exactly(database, fixed_deal):
    service = await open_service(database)
    seats = [AMINA, BARAKA, CHAUSIKU]
    if fixed_deal:
        players = [seat.player for seat in seats]
        deck = build_deck(players, players[1], hands={players[0]: ["5H", "5S", "5D", "5C", "9C"]}, start="6H")
        service.lobby.deal_override = lambda table: (players[1], [deck])
    table = await play_match(service, GROUP, seats, CHAUSIKU)
    replay = await service.store.records.replay(table.table_id)
    assert ("dealer" in replay.data) == ("decks" in replay.data) == fixed_deal
    outcome = run_replay(parse_replay(replay.data))
    game = get_game("kadi")
    final = state_from_json(game, table.state)
    assert outcome["ok"] and outcome["finished"]
    assert outcome["scores"] == game.scores(final)
    assert outcome["hands"] == game.replay_hands(final)
    assert outcome["winners"] == game.winners(final) == [CHAUSIKU.player]
    assert await service.store.records.replay(table.table_id + 1) is None
    await service.store.close()


async def test_partners_are_rated_as_a_team(database):
    service = await open_service(database)
    rng = random.Random(7)
    seats = [AMINA, BARAKA, CHAUSIKU, DAUDI]
    table = await play_random_match(service, GROUP, seats, "pitch", {"partnerships": True}, rng.choice)
    board = await service.store.records.board(GROUP, "pitch")
    rating = {ranked.name: ranked.rating for ranked in board.provisional}
    scores = totals(table)
    winners, losers = (["Amina", "Chausiku"], ["Baraka", "Daudi"]) if scores[AMINA.user_id] > scores[BARAKA.user_id] \
        else (["Baraka", "Daudi"], ["Amina", "Chausiku"])  # fmt: skip
    assert rating[winners[0]] == rating[winners[1]] > ordinal(25, 25 / 3) > rating[losers[0]] == rating[losers[1]]
    await service.store.close()
