"""Arena nights without Telegram: how players are seated and scored (pure), and an arena over the
real table service and store (both databases): re-seating by score as a table finishes, a pause,
a table of the group's own beside the arena's, and a supergroup upgrade taking the arena along."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.registry import get_game
from tables.arena_nights import CLOSING, OVER, ArenaNights, Line, Size, scored, seatings
from tables.models import FINISHED, Seat
from tables.seasons import Seated
from tests.tables.matches import (
    AMINA,
    BARAKA,
    CHAUSIKU,
    DAUDI,
    GROUP,
    OTHER_GROUP,
    QUICK_KADI,
    open_service,
    winning_policy,
)

KADI = Size(usual=3, least=2, most=7)
EUCHRE = Size(usual=3, least=3, most=3)


def match(table_id: int, *places: tuple[int, int]) -> list[Seated]:
    return [Seated(table_id, user, place) for user, place in places]


# ----- scoring --------------------------------------------------------------------------------
def test_first_scores_two_second_one_and_a_third_win_in_a_row_scores_double():
    matches = [
        match(1, (1, 1), (2, 2), (3, 3)),
        match(2, (1, 1), (2, 2)),  # two sides: the loser scores nothing
        match(3, (1, 1), (3, 2), (2, 3)),  # Amina's third win in a row: 4
        match(4, (2, 1), (1, 2), (3, 3)),  # her streak ends with a second place
        match(5, (1, 1), (2, 2)),  # a win, no bonus
    ]
    lines = {line.user_id: line for line in scored(matches, [1, 2, 3, 4])}
    assert lines[1] == Line(1, points=2 + 2 + 4 + 1 + 2, wins=4, matches=5, streak=1, place=1)
    assert (lines[2].points, lines[3].points) == (1 + 0 + 2 + 0, 0 + 1 + 0)
    assert lines[4] == Line(4, place=4), "an entrant who has not played yet has a line at 0"


def test_computer_players_take_places_but_have_no_line_and_equal_lines_share_a_place():
    # Three sides: the two people share second place behind the computer, a point each.
    lines = scored([match(1, (-101, 1), (1, 2), (2, 2))], [1, 2])
    assert [(line.user_id, line.points, line.place) for line in lines] == [(1, 1, 1), (2, 1, 1)]


# ----- seating --------------------------------------------------------------------------------
@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.integers(0, 40),
    st.sampled_from([KADI, EUCHRE, Size(4, 4, 4), Size(4, 2, 6)]),
    st.booleans(),
)
def test_seating_puts_each_waiting_player_at_one_table_of_a_size_the_game_allows(count, size, computers):
    waiting = list(range(1, count + 1))
    tables = seatings(waiting, size, computers)
    seated = [user for people, _computers in tables for user in people]
    assert len(seated) == len(set(seated)) and set(seated) <= set(waiting)
    for people, robots in tables:
        assert size.least <= len(people) + robots <= size.most
        assert robots == 0 or computers, "computer players only where the group chose them"
    left = len(waiting) - len(seated)
    assert left < size.least, "nobody waits who could have played"
    assert left == 0 or not computers
    # Ranked together: the best-placed players share the first table.
    if tables:
        assert tables[0][0][: size.usual] == waiting[: min(size.usual, len(tables[0][0]))]


def test_seven_in_kadi_sit_at_three_and_four_and_one_alone_waits_or_meets_computers():
    assert seatings(list(range(7)), KADI, False) == [([0, 1, 2], 0), ([3, 4, 5, 6], 0)]
    assert seatings([9], KADI, False) == []
    assert seatings([9], KADI, True) == [([9], 2)]
    assert seatings([1, 2, 3, 4, 5], KADI, False) == [([1, 2, 3], 0), ([4, 5], 0)]


# ----- over the table service -------------------------------------------------------------------
async def finish(service, table_id: int, winner: int) -> None:
    for _ in range(3000):
        loaded = await service.load(table_id)
        if loaded.table.status == FINISHED:
            return
        player = loaded.game.to_act(loaded.state)[0]
        action = winning_policy(loaded.game, loaded.state, player, str(winner))
        assert (await service.play.act(table_id, player, loaded.table.version, action)).ok
    raise AssertionError("the match did not end")


async def settled(arenas: ArenaNights) -> None:
    while arenas._tasks:
        await asyncio.gather(*arenas._tasks)


@pytest.mark.asyncio
async def test_an_arena_reseats_by_score_pauses_and_moves_with_its_group(database):
    service = await open_service(database)
    arenas = ArenaNights(service.store, service.lobby, minute=60.0)
    service.feed.listen(arenas)
    try:
        opened = await arenas.open(GROUP, 0, "kadi", AMINA, dict(QUICK_KADI), 30)
        arena = opened.arena
        assert (await arenas.open(GROUP, 0, "kadi", BARAKA, {}, 30)).code == "arena_exists"
        for seat in (AMINA, BARAKA, CHAUSIKU, DAUDI):
            assert (await arenas.join(arena.arena_id, arena.join_token, seat)).ok
        assert (await arenas.join(arena.arena_id, "0" * 12, AMINA)).code == "no_arena"
        assert (await arenas.start(arena.arena_id)).ok
        (table,) = await arenas.arenas.playing(arena.arena_id)
        assert len(table.user_ids) == 4, "four in Kadi: a table of three and the fourth joins it"

        # The group may still open a table of its own beside the arena's.
        assert (await service.lobby.open_lobby(GROUP, 0, "kadi", AMINA, {}, 0)).ok

        await arenas.pause(arena.arena_id, DAUDI.user_id, True)
        await finish(service, table.table_id, CHAUSIKU.user_id)
        await settled(arenas)
        (again,) = await arenas.arenas.playing(arena.arena_id)
        assert again.user_ids[0] == CHAUSIKU.user_id, "the winner leads the next table"
        assert DAUDI.user_id not in again.user_ids, "a paused player is not seated"
        standings = await arenas.standings(arena.arena_id)
        assert [line.user_id for line in standings.lines][:1] == [CHAUSIKU.user_id]
        assert standings.lines[0].points == 2

        # A supergroup upgrade takes the arena, its running table and its results along.
        await service.migration.migrate_chat(GROUP, OTHER_GROUP)
        moved = await arenas.arenas.live_in(OTHER_GROUP)
        assert moved is not None and moved.arena_id == arena.arena_id
        assert (await service.store.get_table(again.table_id)).chat_id == OTHER_GROUP
        assert (await arenas.standings(arena.arena_id)).lines[0].points == 2

        # Time up with a table under way: it closes, and ends once that table has.
        assert (await arenas.stop(arena.arena_id)).ok
        assert (await arenas.arenas.get(arena.arena_id)).status == CLOSING
        await finish(service, again.table_id, AMINA.user_id)
        await settled(arenas)
        assert (await arenas.arenas.get(arena.arena_id)).status == OVER
        assert await arenas.arenas.playing(arena.arena_id) == []
        assert (await arenas.open(OTHER_GROUP, 0, "kadi", AMINA, {}, 30)).ok, "a new arena once it is over"
    finally:
        await service.store.close()


@pytest.mark.asyncio
async def test_an_arena_refuses_a_length_out_of_bounds_and_options_needing_consent(database):
    service = await open_service(database)
    arenas = ArenaNights(service.store, service.lobby)
    try:
        assert (await arenas.open(GROUP, 0, "kadi", AMINA, {}, 2)).code == "minutes"
        assert (await arenas.open(GROUP, 0, "chess", AMINA, {}, 30)).code == "unknown_game"
        (hiding,) = get_game("kadi").consent_options
        assert (await arenas.open(GROUP, 0, "kadi", AMINA, {hiding: True}, 30)).code == "consent_option"
        assert await arenas.arenas.live_in(GROUP) is None
    finally:
        await service.store.close()


@pytest.mark.asyncio
async def test_a_table_the_bot_was_seating_when_it_stopped_is_dealt_at_the_next_start(database):
    service = await open_service(database)
    arenas = ArenaNights(service.store, service.lobby)
    service.feed.listen(arenas)
    try:
        arena = (await arenas.open(GROUP, 0, "kadi", AMINA, dict(QUICK_KADI), 30)).arena
        for seat in (AMINA, BARAKA):
            await arenas.join(arena.arena_id, arena.join_token, seat)
        await arenas.start(arena.arena_id)
        # As if the bot had stopped after seating a table and before dealing it.
        lobby = (
            await service.lobby.open_lobby(GROUP, 0, "kadi", CHAUSIKU, dict(QUICK_KADI), 0, arena_id=arena.arena_id)
        ).table
        lonely = (
            await service.lobby.open_lobby(GROUP, 0, "kadi", DAUDI, dict(QUICK_KADI), 0, arena_id=arena.arena_id)
        ).table
        await service.lobby.join(lobby.table_id, Seat(105, "Eliya"), lobby.join_token)
        await arenas.resume()
        await settled(arenas)
        assert (await service.store.get_table(lobby.table_id)).status == "playing"
        assert (await service.store.get_table(lonely.table_id)).status == "cancelled", "one alone cannot play Kadi"
    finally:
        await service.store.close()
