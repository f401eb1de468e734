"""A season rolling over, from a phone: matches count in the running season (/top, /season); the
season ends while the bot is down, and at its next start the group gets one post of the
champions; /top then shows the new season empty and `/top all` the ratings carried over; a
restart (and a pass that looks again) posts nothing more. An admin sets the season's length."""

from __future__ import annotations

import time

import pytest

from handlers.chat import seasons as seasons_handler
from handlers.chat.seasons import announce_ended
from tables.models import Seat
from tables.seasons import MONTH, season_at
from tests.e2e.conftest import simulation
from tests.e2e.test_records import ask
from tests.tables.matches import play_match

pytestmark = pytest.mark.asyncio

ENDED = "🏁 The season"


def season_ends(api, chat_id):
    return [message for message in api.bot_messages(chat_id) if (message.plain or "").startswith(ENDED)]


async def test_a_season_rolls_over_with_one_post_of_its_champions(api, start_bot, monkeypatch):
    shift = [0.0]  # the seasons' clock runs with the real one, until the test moves it on
    monkeypatch.setattr(seasons_handler, "now", lambda: time.time() + shift[0])
    sim = simulation(api)
    amina, baraka, chausiku = sim.users
    seats = [Seat(user.id, user.first_name) for user in sim.users]
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        await play_match(karata.service, sim.group_id, seats[:2], seats[0])
        await play_match(karata.service, sim.group_id, [seats[1], seats[0]], seats[0])
        await play_match(karata.service, sim.group_id, [seats[2], seats[1]], seats[1])
        await karata.publisher.flush()
        running = season_at(time.time(), MONTH)

        top = (await ask(api, chausiku, sim.group_id, "/top")).plain
        assert top.startswith("🏆 Kadi this season (")
        assert "1. Amina: 4 points (2 wins, 2 matches)" in top and "2. Baraka: 2 points (1 win, 3 matches)" in top
        assert "3. Chausiku: 0 points (0 wins, 1 match)" in top
        mine = (await ask(api, baraka, sim.group_id, "/season")).plain
        assert mine.startswith("📅 Season: ") and "Kadi: place 2 of 3, 2 points" in mine
        assert season_ends(api, sim.group_id) == []

    # The bot is down when the month ends, and starts again an hour into the next.
    shift[0] = running.end + 3600 - time.time()
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        [post] = await api.wait_until(lambda: season_ends(api, sim.group_id), timeout=20, what="the season's end")
        assert "Champions:" in post.plain and "🥇 Kadi: Amina (4 points)" in post.plain
        assert "ratings carry over" in post.plain

        top = (await ask(api, chausiku, sim.group_id, "/top")).plain
        assert "No matches of this game this season yet" in top and "Amina" not in top
        assert "has not finished a match this season yet" in (await ask(api, amina, sim.group_id, "/season")).plain
        carried = (await ask(api, chausiku, sim.group_id, "/top all")).plain
        assert carried.startswith("🏆 Kadi leaderboard in this group")
        assert carried.index("Amina") < carried.index("Baraka") < carried.index("Chausiku"), "ratings carried over"

    async with start_bot() as application:
        karata = application.bot_data["karata"]
        # However often the announcer looks (even as if it had never noted how far it looked):
        await karata.store.database.execute("UPDATE seasons_checked SET up_to = ?", (running.start,))
        await announce_ended(application.bot, karata)
        await announce_ended(application.bot, karata)
        await api.settle(quiet=0.05)
        assert len(season_ends(api, sim.group_id)) == 1, "announced once"


async def test_an_admin_chooses_weekly_seasons_or_none(api, start_bot):
    sim = simulation(api)
    amina, baraka, _chausiku = sim.users
    async with start_bot():
        refused = (await ask(api, baraka, sim.group_id, "/season week")).plain
        assert refused == "Only a group admin can do that."
        chosen = (await ask(api, amina, sim.group_id, "/season week")).plain
        assert chosen.startswith("Seasons now last a week")
        assert "📅 Season: the week of " in (await ask(api, baraka, sim.group_id, "/season")).plain
        assert (await ask(api, amina, sim.group_id, "/season off")).plain.startswith("Seasons are off")
        assert "plays without seasons" in (await ask(api, baraka, sim.group_id, "/season")).plain
        assert "Write /season" in (await ask(api, baraka, sim.group_id, "/season yearly")).plain
        await api.user_starts_bot(baraka)
        await api.settle(quiet=0.05)
        assert "in a group" in (await ask(api, baraka, baraka.id, "/season")).plain


async def test_a_season_of_a_group_upgraded_unseen_is_announced_in_the_supergroup(api, start_bot, monkeypatch):
    """The group became a supergroup while the bot was down and its service messages never came:
    the announcer's post is refused with the new id, the group's records move there, and the
    next pass posts the champions in the supergroup (not a warning every pass, for ever)."""
    shift = [0.0]
    monkeypatch.setattr(seasons_handler, "now", lambda: time.time() + shift[0])
    monkeypatch.setattr(seasons_handler, "ANNOUNCE_EVERY_SECONDS", 0.2)
    sim = simulation(api)
    seats = [Seat(user.id, user.first_name) for user in sim.users]
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        await play_match(karata.service, sim.group_id, seats[:2], seats[0])
        await karata.publisher.flush()
        running = season_at(time.time(), MONTH)

    supergroup = -1009876543210
    api.migrate_group(sim.group_id, supergroup, notify=())
    shift[0] = running.end + 3600 - time.time()
    async with start_bot():
        [post] = await api.wait_until(lambda: season_ends(api, supergroup), timeout=20, what="the season's end")
        assert "🥇 Kadi: Amina (2 points)" in post.plain
