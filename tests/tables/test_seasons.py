"""Seasons: where they turn, how a season's standings come out of the matches played in it, and
which group's ended season the announcer owes (once, and only seasons that had matches)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tables.seasons import (
    MONTH,
    OFF,
    WEEK,
    Line,
    Seated,
    earliest_start,
    latest_turn,
    match_points,
    season_at,
    standings,
)
from tests.tables.matches import AMINA, BARAKA, CHAUSIKU, GROUP, OTHER_GROUP, ROBOT, open_service, play_match


def utc(*parts: int) -> float:
    return datetime(*parts, tzinfo=timezone.utc).timestamp()


# ----- boundaries -----------------------------------------------------------------------------
def test_a_month_season_turns_at_midnight_east_africa_time():
    december = season_at(utc(2026, 12, 15, 12), MONTH)
    assert (december.start, december.end) == (utc(2026, 11, 30, 21), utc(2026, 12, 31, 21))
    # 00:30 in Nairobi on 1 December is December's, though it is still 30 November in UTC.
    assert season_at(utc(2026, 11, 30, 21, 30), MONTH) == december
    assert season_at(utc(2026, 11, 30, 20, 59), MONTH).end == december.start
    january = season_at(december.end, MONTH)
    assert january.start == december.end and january.end == utc(2027, 1, 31, 21), "the year turns with it"
    assert season_at(utc(2027, 2, 10), MONTH).end == utc(2027, 2, 28, 21), "February is short"


def test_a_week_season_runs_monday_to_sunday():
    week = season_at(utc(2026, 12, 10, 12), WEEK)  # a Thursday
    assert (week.start, week.end) == (utc(2026, 12, 6, 21), utc(2026, 12, 13, 21))  # Monday 7th to Monday 14th, EAT
    assert week.holds(utc(2026, 12, 13, 20, 59)) and not week.holds(week.end)


def test_the_announcer_looks_back_to_the_earliest_running_season_and_up_to_the_latest_turn():
    thursday = utc(2026, 12, 3, 12)  # December began on a Tuesday: this week began in November
    assert earliest_start(thursday) == season_at(thursday, WEEK).start == utc(2026, 11, 29, 21)
    assert latest_turn(thursday) == season_at(thursday, MONTH).start
    assert latest_turn(utc(2026, 12, 10, 12)) == season_at(utc(2026, 12, 10, 12), WEEK).start
    with pytest.raises(ValueError):
        season_at(thursday, OFF)


# ----- standings ------------------------------------------------------------------------------
def test_points_by_place_among_sides():
    two = match_points([Seated(1, 11, 1), Seated(1, 12, 2)])
    assert two == {11: (2, True), 12: (0, False)}, "a two-sided match's loser scores nothing"
    assert match_points([Seated(1, 11, 2), Seated(1, 12, 1), Seated(1, 13, 3)]) == {
        11: (1, False), 12: (2, True), 13: (0, False)}  # fmt: skip
    shared = match_points([Seated(1, 11, 1), Seated(1, 12, 1), Seated(1, 13, 3)])
    assert shared == {11: (2, True), 12: (2, True), 13: (0, False)}, "a shared first place: no second"
    # Pitch's partnerships: the losing team sits 3rd and 4th by seat, but is the second of two sides.
    teams = match_points([Seated(1, 11, 1, 0), Seated(1, 12, 3, 1), Seated(1, 13, 1, 0), Seated(1, 14, 3, 1)])
    assert teams == {11: (2, True), 13: (2, True), 12: (0, False), 14: (0, False)}


def test_standings_go_by_points_then_wins_then_fewer_matches_and_equal_lines_share_a_place():
    rows = [
        # Amina (11) wins one two-player match; Baraka (12) is second twice in three-player matches
        # that Chausiku (13) and a computer (-7) win; Daudi (14) wins one in two matches.
        Seated(1, 11, 1), Seated(1, 14, 2),
        Seated(2, 13, 1), Seated(2, 12, 2), Seated(2, 14, 3),
        Seated(3, -7, 1), Seated(3, 12, 2), Seated(3, 15, 3),
        Seated(4, 14, 1), Seated(4, 15, 2),
    ]  # fmt: skip
    lines = standings(rows, counts=lambda user: user > 0)
    assert lines == [
        Line(11, 2, 1, 1, place=1),
        Line(13, 2, 1, 1, place=1),
        Line(14, 2, 1, 3, place=3),
        Line(12, 2, 0, 2, place=4),
        Line(15, 0, 0, 2, place=5),
    ], "the computer still took its place in match 3, and is not listed"
    assert standings([]) == []


# ----- stored ---------------------------------------------------------------------------------
@pytest.mark.asyncio
async def test_the_announcer_owes_each_ended_season_once_and_only_where_matches_were_played(database):
    service = await open_service(database)
    store, seasons = service.store, service.store.seasons
    november, december = utc(2026, 11, 10, 9), utc(2026, 12, 10, 9)
    # The bot first started in October: a season that ended before then is never announced.
    await seasons.begin(utc(2026, 10, 20))
    await seasons.begin(utc(2026, 11, 20))  # a later start changes nothing
    played = [
        await play_match(service, GROUP, [AMINA, BARAKA], AMINA),
        await play_match(service, GROUP, [BARAKA, AMINA], BARAKA),
        await play_match(service, GROUP, [AMINA, ROBOT], AMINA),
        await play_match(service, OTHER_GROUP, [BARAKA, CHAUSIKU], CHAUSIKU),
        await play_match(service, AMINA.user_id, [AMINA, ROBOT], AMINA),  # practice in her private chat
    ]
    # As if played on these days (the results are what seasons read).
    for table, when in zip(played, (november, november, november, december, november)):
        await store.database.execute("UPDATE results SET finished_at = ? WHERE table_id = ?", (when, table.table_id))

    assert (await seasons.due(utc(2026, 11, 25)))[0] == [], "November's season is still running"
    due, until = await seasons.due(utc(2026, 12, 2))
    assert [(item.chat_id, item.ended) for item in due] == [(GROUP, season_at(november, MONTH))]
    assert until == season_at(december, MONTH).start
    lines = await seasons.standings(GROUP, "kadi", season_at(november, MONTH))
    assert lines == [Line(AMINA.user_id, 4, 2, 3, place=1), Line(BARAKA.user_id, 2, 1, 2, place=2)], "people only"
    assert await seasons.played(OTHER_GROUP, season_at(november, MONTH)) == []

    await seasons.announced(GROUP, due[0].ended)
    assert (await seasons.due(utc(2026, 12, 2)))[0] == [], "announced once: not owed again before the next pass"
    await seasons.checked(until)
    assert await seasons.due(utc(2026, 12, 20)) == ([], season_at(utc(2026, 12, 20), WEEK).start)
    assert await seasons.due(until + 60) == ([], until), "no season turned since the last look"

    # The bot down from mid-December to February: December's season is owed at the start, once.
    due, until = await seasons.due(utc(2027, 2, 3))
    assert [(item.chat_id, item.ended) for item in due] == [(OTHER_GROUP, season_at(december, MONTH))]
    await seasons.announced(OTHER_GROUP, due[0].ended)
    assert (await seasons.due(utc(2027, 2, 3)))[0] == []
    await store.close()


@pytest.mark.asyncio
async def test_a_group_that_changes_its_seasons_is_owed_no_season_that_ended_before(database):
    service = await open_service(database)
    store, seasons = service.store, service.store.seasons
    await seasons.begin(utc(2026, 11, 1))
    table = await play_match(service, GROUP, [AMINA, BARAKA], AMINA)
    await store.database.execute(
        "UPDATE results SET finished_at = ? WHERE table_id = ?", (utc(2026, 12, 2), table.table_id)
    )
    assert await seasons.current(GROUP, utc(2026, 12, 10)) == season_at(utc(2026, 12, 10), MONTH), "monthly by default"

    await seasons.set_length(GROUP, WEEK, utc(2026, 12, 10))
    assert await seasons.current(GROUP, utc(2026, 12, 10)) == season_at(utc(2026, 12, 10), WEEK)
    assert (await seasons.due(utc(2026, 12, 10)))[0] == [], "the week that ended on the 6th is not owed"
    await seasons.set_length(GROUP, OFF, utc(2026, 12, 10))
    assert await seasons.current(GROUP, utc(2026, 12, 10)) is None
    assert (await seasons.due(utc(2027, 1, 5)))[0] == [], "no seasons, nothing to announce"
    await store.close()


@pytest.mark.asyncio
async def test_choosing_the_length_a_group_already_has_keeps_the_season_that_just_ended_owed(database):
    service = await open_service(database)
    store, seasons = service.store, service.store.seasons
    await seasons.begin(utc(2026, 11, 1))
    table = await play_match(service, GROUP, [AMINA, BARAKA], AMINA)
    await store.database.execute(
        "UPDATE results SET finished_at = ? WHERE table_id = ?", (utc(2026, 11, 20), table.table_id)
    )
    # Just after midnight on 1 December, before the announcer's pass, an admin sends /season
    # month again (monthly is the default), then once more with a stored row.
    await seasons.set_length(GROUP, MONTH, utc(2026, 12, 1, 0, 5))
    await seasons.set_length(GROUP, MONTH, utc(2026, 12, 1, 0, 6))
    due, _ = await seasons.due(utc(2026, 12, 1, 0, 10))
    assert [(item.chat_id, item.ended) for item in due] == [(GROUP, season_at(utc(2026, 11, 20), MONTH))]
    await store.close()


@pytest.mark.asyncio
async def test_in_a_fleet_standings_span_the_bots_and_each_announces_its_own_groups(database):
    """Two bots on one database (docs/DECISIONS.md, "PostgreSQL and a fleet")."""
    first, second = await open_service(database, bot_id=1), await open_service(database, bot_id=2)
    for service in (first, second):
        await service.store.seasons.begin(utc(2026, 11, 1))
    ours = await play_match(first, GROUP, [AMINA, BARAKA], AMINA)
    theirs = await play_match(second, OTHER_GROUP, [BARAKA, CHAUSIKU], CHAUSIKU)
    for table in (ours, theirs):
        await first.store.database.execute(
            "UPDATE results SET finished_at = ? WHERE table_id = ?", (utc(2026, 11, 10), table.table_id)
        )
    november = season_at(utc(2026, 11, 10), MONTH)
    lines = await second.store.seasons.standings(GROUP, "kadi", november)
    assert [line.user_id for line in lines] == [AMINA.user_id, BARAKA.user_id], "the other bot's match counts"

    due, until = await first.store.seasons.due(utc(2026, 12, 2))
    assert [item.chat_id for item in due] == [GROUP], "each bot owes only the groups of its own tables"
    await first.store.seasons.announced(GROUP, due[0].ended)
    await first.store.seasons.checked(until)
    due, _until = await second.store.seasons.due(utc(2026, 12, 2))
    assert [item.chat_id for item in due] == [OTHER_GROUP], "one bot's look does not make another skip"
    for service in (first, second):
        await service.store.close()
