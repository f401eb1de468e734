"""Nothing stalls after a crash, every phase moves without a timer, and nobody plays where they
were not invited."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.e2e.conftest import STORES, simulation
from tests.e2e.helpers import sensible_player, table_state
from tests.e2e.test_kadi_table import open_kadi

pytestmark = pytest.mark.asyncio


def buttons(message) -> list[str]:
    return [data for row in message.buttons for _, data in row if (data or "").startswith("T:")] if message else []


def crash(application) -> None:
    """The process dies: nothing it meant to show goes out, and there is no graceful stop."""
    application.bot_data["karata"].service.feed.put = lambda *args, **kwargs: None
    application.post_stop = None


@pytest.mark.parametrize("db_path", STORES, indirect=True)
async def test_a_crash_between_commit_and_publish_is_mended_at_the_restart(api, start_bot, db_path):
    sim = simulation(api)
    amina = sim.users[0]
    async with start_bot() as application:
        table = await open_kadi(api, application, sim, hands=[["7H", "KS"], ["7S", "9C"], ["7D", "9D"]], start="6H")
        await application.bot_data["karata"].publisher.settle()
        hand = sim.hand_message(amina)
        crash(application)
        press = next(data for row in hand.buttons for label, data in row if label == "7♥️")
        answer = await api.wait_for_answer(await api.press(amina, amina.id, hand.message_id, press))
        assert not answer.get("text"), "the move was taken"
    assert not any(buttons(sim.hand_message(user)) for user in sim.users[1:]), "nothing was shown before the crash"
    async with start_bot() as application:
        await application.bot_data["karata"].publisher.settle()
        loaded = await table_state(application, table.table_id)
        (waiting,) = loaded.game.to_act(loaded.state)
        assert waiting != str(amina.id), "the move was stored"
        following = next(user for user in sim.users if str(user.id) == waiting)
        assert buttons(sim.hand_message(following)), "the next player has their buttons"
        assert f"Waiting for {following.first_name}" in sim.table_message().plain
        mine = api.bot_messages(amina.id)[-1]
        hand_line = next(line for line in mine.plain.splitlines() if line.startswith("Your hand"))
        assert "K♠" in hand_line and "7♥" not in hand_line and not buttons(mine), "the card is gone; she waits"


@pytest.mark.parametrize("db_path", STORES, indirect=True)
async def test_a_press_delivered_again_after_a_crash_is_answered_as_what_it_did(api, start_bot, db_path):
    sim = simulation(api)
    amina = sim.users[0]
    async with start_bot() as application:
        table = await open_kadi(api, application, sim, hands=[["7H", "KS"]], start="6H")
        await application.bot_data["karata"].publisher.settle()
        hand = sim.hand_message(amina)
        press = next(data for row in hand.buttons for label, data in row if label == "7♥️")
        query = await api.press(amina, amina.id, hand.message_id, press)
        await api.wait_for_answer(query)
        version = (await table_state(application, table.table_id)).table.version
    api.queries[query].answer = None
    api.redeliver(query)  # the bot died before telling Telegram it had this update
    async with start_bot() as application:
        answer = await api.wait_for_answer(query)
        assert not answer.get("text"), "answered as the move it made, not as a stale button"
        assert (await table_state(application, table.table_id)).table.version == version, "applied once"


# Short matches: a low points limit or target, and a win anyone can reach. Three Thirteen always
# plays eleven rounds: its first three pauses are watched, and the other games show the match end.
SHORT = {
    "kadi": (3, "points_limit=40"),
    "pitch": (2, 'win_condition="anyone"'),
    "euchre3": (3, "target=5"),
    "three_thirteen": (2, ""),
}


@pytest.mark.parametrize("game", sorted(SHORT))
async def test_without_a_turn_timer_every_round_and_pause_moves_on(api, start_bot, game):
    count, options = SHORT[game]
    sim = simulation(api, count=count, seed=11)
    rng = random.Random(11)
    choose = sensible_player(rng)
    async with start_bot(KARATA_TURN_SECONDS=0, KARATA_ROUND_PAUSE_SECONDS=0.05) as application:
        await sim.open_table(game, f"timer=0 {options}")
        service = application.bot_data["karata"].service
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        rounds = set()
        for _move in range(3000):
            loaded = await service.load(table.table_id)
            if loaded.table.status == "finished" or (game == "three_thirteen" and len(rounds) > 3):
                break
            rounds.add(loaded.game.round_number(loaded.state))
            if service.paused(loaded.table):
                await asyncio.sleep(0.02)  # the next round shows by itself
                continue
            player = loaded.game.to_act(loaded.state)[0]
            legal = loaded.game.legal_actions(loaded.state, player)
            action = choose(player, legal, loaded) or rng.choice(legal)
            outcome = await service.play.act(table.table_id, player, loaded.table.version, action)
            assert outcome.ok or outcome.code == "round_pause", outcome
        assert loaded.table.status == "finished" or len(rounds) > 3, f"{game} stalled in round {max(rounds)}"
        assert len(rounds) > 1


async def test_play_again_pressed_from_another_group_opens_nothing(api, start_bot):
    sim = simulation(api)
    outsider = api.add_user(5050, "Mgeni")
    api.add_group(-1009999, "Elsewhere", members={outsider.id: "creator"})
    async with start_bot() as application:
        await sim.open_table("kadi")
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        await application.bot_data["karata"].service.lobby.end_session(table.table_id, None, True)
        await application.bot_data["karata"].publisher.settle()
        elsewhere = api.last_message(-1009999, from_bot=False) or await _any_message(api, outsider, -1009999)
        query = await api.press_forged(outsider, -1009999, elsewhere.message_id, f"A:{table.table_id}")
        assert (await api.wait_for_answer(query)).get("text")
        assert await application.bot_data["karata"].store.live_table(sim.group_id, 0) is None
        assert await application.bot_data["karata"].store.live_table(-1009999, 0) is None


async def _any_message(api, user, chat_id):
    await api.send_text(user, chat_id, "habari")
    return api.last_message(chat_id, from_bot=False)


async def test_joining_needs_the_links_secret_and_the_group(api, start_bot):
    sim = simulation(api, count=2)
    stranger = api.add_user(6060, "Mgeni")
    async with start_bot() as application:
        await api.send_text(sim.users[0], sim.group_id, "/newgame kadi")
        lobby = await api.wait_until(sim.table_message, what="lobby")
        link = next(data for row in lobby.buttons for _, data in row if data.startswith("https://"))
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        # A guess at the table's number is no way in.
        await api.user_starts_bot(stranger, f"j{table.table_id}")
        await api.user_starts_bot(stranger, f"j{table.table_id}_000000000000")
        # The real link is no way in either, for someone outside the group.
        await api.open_link(stranger, link)
        await api.settle(quiet=0.05)
        await application.bot_data["karata"].publisher.settle()
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        assert table.seat_of(stranger.id) is None
        replies = [message.plain for message in api.bot_messages(stranger.id)]
        assert any("members of the table's group" in (text or "") for text in replies), replies
        # A member of the group joins with it.
        await api.open_link(sim.users[1], link)
        await api.settle(quiet=0.05)
        assert (await application.bot_data["karata"].store.live_table(sim.group_id, 0)).seat_of(sim.users[1].id)


async def test_a_game_picked_in_a_private_chat_opens_a_practice_table(api, start_bot):
    sim = simulation(api, count=1)
    user = sim.users[0]
    await api.user_starts_bot(user)
    async with start_bot() as application:
        await api.settle(quiet=0.05)
        own = api.bot_messages(user.id)[-1]
        query = await api.press_forged(user, user.id, own.message_id, "N:kadi")
        await api.wait_for_answer(query)
        table = await application.bot_data["karata"].store.live_table(user.id, 0)
        assert table.status == "playing" and len(table.computers) == 2


async def test_two_quick_play_again_presses_open_one_table(api, start_bot):
    sim = simulation(api, count=2)
    async with start_bot() as application:
        await sim.open_table("kadi")
        karata = application.bot_data["karata"]
        table = await karata.store.live_table(sim.group_id, 0)
        await karata.service.lobby.end_session(table.table_id, None, True)
        await karata.publisher.settle()
        message = sim.table_message()
        again = next(data for row in message.buttons for _, data in row if data.startswith("A:"))
        first, second = await asyncio.gather(
            *(api.press(user, sim.group_id, message.message_id, again) for user in sim.users)
        )
        answers = [await api.wait_for_answer(query) for query in (first, second)]
        assert sum(1 for answer in answers if answer.get("text")) == 1, answers
        assert await karata.store.live_table(sim.group_id, 0) is not None
