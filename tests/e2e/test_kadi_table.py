"""Kadi from a phone: the call three ways, missed calls, Jack commands, stacks, a long match, hiding."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import simulation
from tests.e2e.helpers import table_state
from tests.kadi.test_kadi_helpers import build_deck

pytestmark = pytest.mark.asyncio

FIVES = ["5H", "5S", "5D", "5C", "9C"]
PLAY_FOUR_FIVES = ["5♥️", "5♠", "5♦️", "5♣"]


async def open_kadi(api, application, sim, options="hand_size=5", hands=(), start="6H", stock=()):
    """A Kadi table whose deal is fixed: hands[i] go to the i-th user; the last user deals."""
    players = [str(user.id) for user in sim.users]
    named = {players[index]: cards for index, cards in enumerate(hands)}
    deck = build_deck(players, players[-1], hands=named, start=start, stock=stock, hand_size=5)
    application.bot_data["karata"].service.lobby.deal_override = lambda table: (players[-1], [deck])
    await sim.open_table("kadi", options)
    return await application.bot_data["karata"].store.live_table(sim.group_id, 0)


def labels(sim, user):
    message = sim.hand_message(user)
    return [label for row in message.buttons for label, data in row if data.startswith("T:")] if message else []


async def press(api, sim, user, *path):
    """Press buttons of the user's hand message by label, one after another; return the last toast."""
    text = None
    for label in path:
        message = sim.hand_message(user)
        assert message is not None, f"{user.first_name} has no buttons"
        query = await api.press_text(user, user.id, message.message_id, label)
        text = (await api.wait_for_answer(query)).get("text")
    return text


async def count(application, table, player):
    loaded = await table_state(application, table.table_id)
    return len(loaded.game.replay_hands(loaded.state)[player])


async def table_text(application, sim):
    """The group's table message once queued edits went out."""
    await application.bot_data["karata"].publisher.flush()
    return sim.table_message().plain


async def test_a_missed_call_is_penalised_by_the_bot_and_the_group_is_told(api, start_bot):
    sim = simulation(api)
    amina, baraka, _ = sim.users
    async with start_bot() as application:
        table = await open_kadi(api, application, sim, hands=[FIVES])
        await press(api, sim, amina, *PLAY_FOUR_FIVES, "✔")
        assert "📣 Kadi Moja!" in labels(sim, amina), "the call button appears the moment one card is left"
        await press(api, sim, baraka, labels(sim, baraka)[0])
        assert await count(application, table, str(amina.id)) == 3
        assert "missed “Kadi Moja!”" in await table_text(application, sim)


@pytest.mark.parametrize("way", ["private button", "play and call", "/kadi", "reply"])
async def test_a_call_in_time_is_not_penalised(api, start_bot, way):
    sim = simulation(api)
    amina, baraka, _ = sim.users
    async with start_bot() as application:
        table = await open_kadi(api, application, sim, hands=[FIVES])
        if way == "play and call":
            await press(api, sim, amina, "📣 Play + Kadi Moja!", *PLAY_FOUR_FIVES, "✔")
        else:
            await press(api, sim, amina, *PLAY_FOUR_FIVES, "✔")
            if way == "private button":
                await press(api, sim, amina, "📣 Kadi Moja!")
            elif way == "/kadi":
                await api.send_text(amina, sim.group_id, "/kadi")
            else:
                await api.send_text(
                    amina, sim.group_id, "Niko Kadi!", reply_to_message_id=sim.table_message().message_id
                )

            async def called():
                return "“Kadi Moja!”" in await table_text(application, sim)

            await api.wait_until(called, what="the call on the table")
        await press(api, sim, baraka, labels(sim, baraka)[0])
        assert await count(application, table, str(amina.id)) == 1
        assert "missed" not in await table_text(application, sim)


async def test_a_call_button_pressed_by_someone_else_only_gets_a_toast(api, start_bot):
    sim = simulation(api)
    amina, baraka, _ = sim.users
    async with start_bot() as application:
        table = await open_kadi(api, application, sim, hands=[FIVES])
        await press(api, sim, amina, *PLAY_FOUR_FIVES, "✔")
        message = sim.table_message()
        call = next(data for row in message.buttons for label, data in row if "Kadi Moja" in label)
        answer = await api.wait_for_answer(await api.press(baraka, sim.group_id, message.message_id, call))
        assert "only when you hold one card" in answer["text"]
        before = (await table_state(application, table.table_id)).table.version
        # Amina's own press works from the group too.
        await api.wait_for_answer(await api.press(amina, sim.group_id, message.message_id, call))
        assert (await table_state(application, table.table_id)).table.version == before + 1


async def test_a_jack_command_is_chosen_in_the_private_chat_and_obeyed(api, start_bot):
    sim = simulation(api)
    amina, baraka, _ = sim.users
    async with start_bot() as application:
        await open_kadi(api, application, sim, hands=[["JH"], ["7S", "KH", "QH"]])
        await press(api, sim, amina, "J♥️")
        assert {"♠ spades", "♥️ hearts", "♦️ diamonds", "♣ clubs", "⚡ Power card"} <= set(labels(sim, amina))
        await press(api, sim, amina, "♠ spades")
        assert "Command: ♠ spades" in await table_text(application, sim)
        offered = labels(sim, baraka)
        assert "7♠" in offered and "K♥️" not in offered and "Q♥️" not in offered


async def test_a_two_stack_is_answered_then_taken(api, start_bot):
    sim = simulation(api)
    amina, baraka, chausiku = sim.users
    async with start_bot() as application:
        table = await open_kadi(api, application, sim, hands=[["2H"], ["2S"]])
        await press(api, sim, amina, "2♥️")
        assert set(labels(sim, baraka)) == {"2♠", "Draw 2"}
        await press(api, sim, baraka, "2♠")
        assert "Penalty: draw 4" in await table_text(application, sim)
        assert labels(sim, chausiku) == ["Draw 4"]
        await press(api, sim, chausiku, "Draw 4")
        assert await count(application, table, str(chausiku.id)) == 9


async def test_a_joker_stack_is_answered_then_taken(api, start_bot):
    sim = simulation(api)
    amina, baraka, chausiku = sim.users
    async with start_bot() as application:
        table = await open_kadi(api, application, sim, hands=[["X"], ["X"]])
        await press(api, sim, amina, "🃏")
        await press(api, sim, baraka, "🃏")
        assert "Penalty: draw 10" in await table_text(application, sim)
        await press(api, sim, chausiku, "Draw 10")
        assert await count(application, table, str(chausiku.id)) == 15


@pytest.mark.long
async def test_a_long_match_with_elimination_ends_with_standings_and_costs_few_calls(api, start_bot):
    sim = simulation(api, count=4, seed=5)
    # Telegram's real limits, kept by the bot and enforced by the fake: the group's table edits
    # are paced by its budget while players press as fast as their own chats show the moves.
    api.flood_control.enforce = True
    async with start_bot(KARATA_GROUP_RATE=20, KARATA_BOT_RATE=30) as application:
        sim.application = application
        sim.private_only = True
        await sim.open_table("kadi", "elimination=true points_limit=60")
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        api.calls.clear()
        seen_eliminated = False
        for _ in range(6000):
            loaded = await table_state(application, table.table_id)
            if loaded.table.status != "playing":
                break
            seen_eliminated |= any(event["kind"] == "eliminated" for event in loaded.table.recent_events)
            assert await sim.step()
        await api.settle(quiet=0.05)
        final = await table_state(application, table.table_id)
        assert final.table.status == "finished"
        text = await table_text(application, sim)
        assert "Match over" in text and "🏆" in text
        assert any("Play again" == label for row in sim.table_message().buttons for label, _ in row)
        assert seen_eliminated
        sends = [method for method, _ in api.calls if method in ("sendMessage", "editMessageText", "deleteMessage")]
        moves = final.table.version - 1
        assert len(sends) / moves <= 3, f"{len(sends)} Bot API calls for {moves} moves"
        assert api.flood_stats().violations == 0, "no call Telegram would refuse"


async def agree_to_hiding(api, sim, answers):
    lobby = sim.table_message()
    for user, answer in zip(sim.users, answers):
        data = next(d for row in lobby.buttons for label, d in row if d.endswith(":" + answer))
        await api.wait_for_answer(await api.press(user, sim.group_id, lobby.message_id, data))


async def open_hiding_table(api, application, sim, answers, hands=()):
    players = [str(user.id) for user in sim.users]
    named = {players[index]: cards for index, cards in enumerate(hands)}
    deck = build_deck(players, players[-1], hands=named, start="6H", hand_size=5)
    application.bot_data["karata"].service.lobby.deal_override = lambda table: (players[-1], [deck])
    await api.send_text(sim.users[0], sim.group_id, "/newgame kadi hand_size=5 hiding=true")
    lobby = await api.wait_until(sim.table_message, what="lobby")
    join = next(d for row in lobby.buttons for _, d in row if d.startswith("https://"))
    for user in sim.users:
        await api.open_link(user, join)
    await api.settle(quiet=0.05)
    start = next(d for row in lobby.buttons for _, d in row if d.endswith(":start"))
    await api.wait_for_answer(await api.press(sim.users[0], sim.group_id, lobby.message_id, start))
    await api.settle(quiet=0.05)
    # The group's table is shown after the press is answered: wait for it, not for a speed.
    await api.wait_until(lambda: "agreement" in sim.table_message().plain, what="the agreement question")
    await agree_to_hiding(api, sim, answers)
    await api.settle(quiet=0.05)
    return await application.bot_data["karata"].store.live_table(sim.group_id, 0)


async def test_one_refusal_turns_hiding_off(api, start_bot):
    sim = simulation(api)
    async with start_bot() as application:
        table = await open_hiding_table(api, application, sim, ["agree", "refuse"])
        assert table.status == "playing" and table.options["hiding"] is False
        assert not any("Hide" in label for label in labels(sim, sim.users[0]))


async def accuse(api, application, sim, accuser, target):
    """Press the accuse button on the table twice: the first press only explains the stakes."""
    await application.bot_data["karata"].publisher.flush()
    message = sim.table_message()
    data = next(d for row in message.buttons for label, d in row if label == "⚖️ " + target.first_name)
    first = await api.wait_for_answer(await api.press(accuser, sim.group_id, message.message_id, data))
    assert first.get("show_alert") and "Press again" in first["text"]
    await api.wait_for_answer(await api.press(accuser, sim.group_id, message.message_id, data))


async def test_hiding_accusations_right_and_wrong(api, start_bot):
    sim = simulation(api)
    amina, baraka, chausiku = sim.users
    async with start_bot() as application:
        table = await open_hiding_table(api, application, sim, ["agree", "agree", "agree"], hands=[["9S", "4C"]])
        assert table.options["hiding"] is True
        await press(api, sim, amina, "🙈 Hide a card", "9♠")
        assert await count(application, table, str(amina.id)) == 5
        # Baraka accuses Chausiku, who hides nothing: Baraka pays.
        await accuse(api, application, sim, baraka, chausiku)
        assert "hid nothing" in await table_text(application, sim)
        assert await count(application, table, str(baraka.id)) == 10
        # Baraka accuses Amina, who hides 9♠: Amina pays.
        await accuse(api, application, sim, baraka, amina)
        assert "caught hiding" in await table_text(application, sim)
        assert await count(application, table, str(amina.id)) == 10
