"""An arena night through the fake Bot API: seven players in Kadi over ten (scaled) minutes,
re-seated as their tables finish, a restart in the middle, and the final standings checked
against the matches the store holds; pausing, the group's settings and computer players."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time

import pytest

from tables.arena_nights import OVER, RUNNING
from tests.e2e.conftest import simulation
from tests.e2e.helpers import sensible_player

pytestmark = pytest.mark.asyncio

KADI = " ".join(f"{name}={json.dumps(value)}" for name, value in {"points_limit": 1, "hand_size": 5}.items())
# An arena minute lasts 1.5 s here: ten minutes are 15 s.
FAST = {"KARATA_COMPUTER_SECONDS": 0, "KARATA_ARENA_MINUTE_SECONDS": 1.5}
WAIT = 120.0


def buttons(message) -> list[tuple[str, str]]:
    return [(label, data or "") for row in (message.buttons if message else []) for label, data in row]


def standings_message(api, group_id):
    return next((m for m in reversed(api.bot_messages(group_id)) if "Arena:" in (m.plain or "")), None)


def join_payload(message) -> str:
    url = next(data for label, data in buttons(message) if "Join" in label)
    return re.search(r"start=(a[0-9]+_[0-9a-f]+)", url).group(1)


@contextlib.asynccontextmanager
async def players_playing(application, sim, arena_id):
    """The people move whenever their arena tables wait for them (through the table service,
    as a press does, to keep the matches short), until the context ends."""
    karata = application.bot_data["karata"]
    choose = sensible_player(random.Random(1))
    people = {str(user.id) for user in sim.users}

    async def play() -> None:
        while True:
            moved = False
            for table in await karata.store.arenas.playing(arena_id):
                loaded = await karata.service.load(table.table_id)
                if loaded is None or loaded.state is None or loaded.table.status != "playing":
                    continue
                for player in sorted(people & set(loaded.game.to_act(loaded.state))):
                    action = choose(player, loaded.game.legal_actions(loaded.state, player), loaded)
                    if action is not None:
                        await karata.service.play.act(table.table_id, player, loaded.table.version, action)
                        moved = True
                    break
            await asyncio.sleep(0 if moved else 0.01)

    task = asyncio.get_running_loop().create_task(play())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def until(check, what: str, seconds: float = WAIT):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


def expected_standings(matches: list[list[tuple[int, int]]], people: set[int]) -> dict[int, int]:
    """The rule as players read it: in each match (in the order they finished) first scores 2,
    second 1 (three or more players), and a win after two wins in a row scores double."""
    points = dict.fromkeys(people, 0)
    streak = dict.fromkeys(people, 0)
    for seats in matches:
        for user, place in seats:
            if user not in people:
                continue
            rank = 1 + sum(other < place for _other, other in seats)
            won = rank == 1
            scored = 2 if won else 1 if rank == 2 and len(seats) >= 3 else 0
            points[user] += scored * (2 if won and streak[user] >= 2 else 1)
            streak[user] = streak[user] + 1 if won else 0
    return points


@pytest.mark.long
async def test_an_arena_of_seven_in_kadi_reseats_survives_a_restart_and_ends_with_a_podium(api, start_bot):
    sim = simulation(api, count=7, seed=11)
    opener, *others = sim.users
    late = others.pop()
    for user in sim.users:
        await api.user_starts_bot(user)
    async with start_bot(**FAST) as application:
        karata = application.bot_data["karata"]
        await api.send_text(opener, sim.group_id, f"/arena kadi 10 {KADI}")
        board = await api.wait_until(lambda: standings_message(api, sim.group_id), what="the standings message")
        payload = join_payload(board)
        arena_id = int(payload[1:].split("_")[0])
        for user in [opener, *others]:
            await api.user_starts_bot(user, payload)
        await api.settle()
        assert "in the Kadi arena" in api.bot_messages(opener.id)[-1].plain
        arena = await karata.store.arenas.get(arena_id)
        assert len(arena.entrants) == 6

        # Only the opener (or an admin) starts it.
        start = next(data for _label, data in buttons(board) if data.endswith(":start"))
        answer = await api.wait_for_answer(await api.press(others[0], sim.group_id, board.message_id, start))
        assert "opener" in answer["text"]
        await api.wait_for_answer(await api.press(opener, sim.group_id, board.message_id, start))
        tables = await karata.store.arenas.playing(arena_id)
        assert sorted(len(table.user_ids) for table in tables) == [3, 3], "six players at two tables of three"
        started = (await karata.store.arenas.get(arena_id)).ends_at

        # A late joiner waits alone (Kadi needs two) until a table finishes.
        await api.user_starts_bot(late, payload)
        await api.settle()
        assert late.id not in {user for table in await karata.store.arenas.playing(arena_id) for user in table.user_ids}
        async with players_playing(application, sim, arena_id):

            async def reseated():
                tables = await karata.store.arenas.playing(arena_id)
                seated = {user for table in tables for user in table.user_ids}
                return late.id in seated

            await until(reseated, "the late joiner seated when a table finished")
            matches, _names = await karata.store.arenas.finished(arena_id)
            assert matches, "a match finished before the late joiner was seated"
        # The players' tables came to their private chats; the group saw only the arena's messages.
        assert all("Arena" in (m.plain or "") for m in api.bot_messages(sim.group_id) if m.plain)

    # A restart in the middle: the arena stands where it was, its clock unchanged.
    async with start_bot(**FAST) as application:
        karata = application.bot_data["karata"]
        arena = await karata.store.arenas.get(arena_id)
        assert arena.status == RUNNING and arena.ends_at == started
        assert karata.arenas.timers.armed(arena_id) == {"end": started}
        async with players_playing(application, sim, arena_id):

            async def over():
                found = await karata.store.arenas.get(arena_id)
                return found if found.status == OVER and found.told else None

            await until(over, "the arena's end and its podium")
        assert time.time() >= started, "no arena ends before its time"
        matches, _names = await karata.store.arenas.finished(arena_id)
        finished_after = [match for match in matches if match.finished_at > started]
        assert all(match.seats for match in finished_after)
        # No table started after the time was up.
        rows = await karata.store.database.all(
            "SELECT created_at FROM tables WHERE arena_id = ? ORDER BY created_at DESC LIMIT 1", (arena_id,)
        )
        assert rows[0][0] <= started

    people = {user.id for user in sim.users}
    expected = expected_standings([[(seat.user_id, seat.place) for seat in match.seats] for match in matches], people)
    assert len(matches) >= 3, "tables were seated again as they finished"
    podium = next(m for m in reversed(api.bot_messages(sim.group_id)) if "arena is over" in (m.plain or ""))
    best = max(expected.values())
    leaders = [user for user in sim.users if expected[user.id] == best]
    first_line = next(line for line in podium.plain.splitlines() if line.startswith("🥇"))
    assert any(user.first_name in first_line for user in leaders), (first_line, expected)
    assert f"{best} point" in first_line
    for user in sim.users:
        own = [m for m in api.bot_messages(user.id) if "The arena is over. You finished" in (m.plain or "")]
        assert len(own) == 1, f"{user.first_name} gets their own line once"
        assert f"with {expected[user.id]} point" in own[0].plain


async def test_who_may_open_an_arena_computer_players_a_pause_and_an_early_stop(api, start_bot):
    sim = simulation(api, count=2, seed=12)
    admin, member = sim.users
    for user in sim.users:
        await api.user_starts_bot(user)
    async with start_bot(**FAST) as application:
        karata = application.bot_data["karata"]
        await api.send_text(member, sim.group_id, f"/arena kadi 10 {KADI}")
        refused = await api.wait_until(
            lambda: next((m for m in api.bot_messages(sim.group_id) if "Only a group admin" in (m.plain or "")), None),
            what="the refusal",
        )
        assert "/arena anyone on" in refused.plain
        await api.send_text(member, sim.group_id, "/arena bots on")
        await api.wait_until(
            lambda: len([m for m in api.bot_messages(sim.group_id) if "Only a group admin" in (m.plain or "")]) == 2,
            what="the second refusal",
        )
        for setting in ("anyone on", "bots on"):
            await api.send_text(admin, sim.group_id, f"/arena {setting}")
        await api.settle()
        await api.send_text(member, sim.group_id, f"/arena kadi 10 {KADI}")
        board = await api.wait_until(lambda: standings_message(api, sim.group_id), what="the standings message")
        payload = join_payload(board)
        arena_id = int(payload[1:].split("_")[0])
        await api.user_starts_bot(member, payload)
        await api.settle()
        start = next(data for _label, data in buttons(board) if data.endswith(":start"))
        await api.wait_for_answer(await api.press(member, sim.group_id, board.message_id, start))
        (table,) = await karata.store.arenas.playing(arena_id)
        assert table.user_ids[0] == member.id and all(user < 0 for user in table.user_ids[1:])
        assert len(table.user_ids) == 3, "two computer players fill the usual table of three"

        # The admin joins late and pauses at once: no table for them until they come back.
        await api.user_starts_bot(admin, payload)
        joined = await api.wait_until(
            lambda: next((m for m in reversed(api.bot_messages(admin.id)) if "arena" in (m.plain or "")), None),
            what="the admin's welcome",
        )
        seated = {user for table in await karata.store.arenas.playing(arena_id) for user in table.user_ids}
        assert admin.id in seated, "alone but for computer players, a late joiner plays at once"
        pause = next(data for label, data in buttons(joined) if "Pause" in label)
        await api.wait_for_answer(await api.press(admin, admin.id, joined.message_id, pause))
        await api.settle()
        answered = next(m for m in api.bot_messages(admin.id) if m.message_id == joined.message_id)
        assert "left the Kadi arena's queue" in answered.plain
        assert any("Come back" in label for label, _data in buttons(answered))
        assert (await karata.store.arenas.get(arena_id)).entrant(admin.id).paused

        await api.send_text(member, sim.group_id, "/arena stop")
        async with players_playing(application, sim, arena_id):

            async def over():
                found = await karata.store.arenas.get(arena_id)
                return found if found.status == OVER and found.told else None

            await until(over, "the arena's end")
        await api.send_text(member, sim.group_id, "/history")
        history = await api.wait_until(
            lambda: next((m for m in api.bot_messages(sim.group_id) if "last matches" in (m.plain or "")), None),
            what="/history",
        )
        assert history.plain.count("🏟 arena") == len((await karata.store.arenas.finished(arena_id))[0]) >= 1


@pytest.mark.parametrize("learnt_from", ["the failed call", "the service message"])
async def test_a_group_upgraded_during_an_arena_takes_it_along(api, start_bot, learnt_from):
    sim = simulation(api, count=3, seed=13)
    supergroup = -1001234567890
    for user in sim.users:
        await api.user_starts_bot(user)
    # With the Mini App served under a short name, each running table has its 👀 Watch link.
    app = {"KARATA_WEBAPP_URL": "http://127.0.0.1/app/", "KARATA_WEBAPP_NAME": "karata"}
    async with start_bot(**FAST, **app) as application:
        karata = application.bot_data["karata"]
        await api.send_text(sim.users[0], sim.group_id, f"/arena kadi 10 {KADI}")
        board = await api.wait_until(lambda: standings_message(api, sim.group_id), what="the standings message")
        payload = join_payload(board)
        arena_id = int(payload[1:].split("_")[0])
        for user in sim.users:
            await api.user_starts_bot(user, payload)
        await api.settle()
        api.migrate_group(sim.group_id, supergroup, notify=() if learnt_from == "the failed call" else ("old", "new"))
        start = next(data for _label, data in buttons(board) if data.endswith(":start"))
        await api.press(sim.users[0], sim.group_id, board.message_id, start)  # the old group's message still works

        def running_there():
            found = standings_message(api, supergroup)
            return found if found is not None and "Running until" in found.plain and "🃏" in found.plain else None

        moved = await api.wait_until(running_there, timeout=60, what="the standings posted in the supergroup")
        arena = await karata.store.arenas.get(arena_id)
        assert arena.chat_id == supergroup and arena.message_id == moved.message_id
        (table,) = await karata.store.arenas.playing(arena_id)
        assert (await karata.store.get_table(table.table_id)).chat_id == supergroup
        assert f"https://t.me/karata_bot/karata?startapp=w{table.table_id}_{table.join_token}" in moved.text
