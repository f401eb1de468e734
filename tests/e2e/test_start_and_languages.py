"""A new player's first minutes: the profile and menus Telegram shows, the welcome, /help, how to
play, and a Swahili group's players reading Swahili until they choose otherwise."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import simulation

pytestmark = pytest.mark.asyncio

GROUP = {"type": "all_group_chats"}
PRIVATE = {"type": "all_private_chats"}
PROFILE_SETTERS = {"setMyName", "setMyDescription", "setMyShortDescription", "setMyCommands"}


def names(commands):
    return [command["command"] for command in commands]


def descriptions(commands):
    return {command["command"]: command["description"] for command in commands}


def hand_of(api, user):
    """The text of the player's hand message (every player has one, with or without buttons)."""
    return next(m.plain for m in reversed(api.bot_messages(user.id)) if (m.plain or "").startswith("🎲 Kadi"))


def button(message, label_part):
    return next(data for row in message.buttons for label, data in row if label_part in label)


async def test_menus_name_and_descriptions_per_chat_type_and_language_set_once(api, start_bot):
    sim = simulation(api, count=2, language="en")
    nobody = api.add_user(1100, "Neema", language_code=None)
    async with start_bot(KARATA_GROUP_LANGUAGE="sw"):
        group, private, english = api.commands(GROUP), api.commands(PRIVATE), api.commands(PRIVATE, "en")
        assert names(group) == [
            "newgame",
            "arena",
            "table",
            "hand",
            "kadi",
            "rules",
            "vote",
            "leave",
            "endsession",
            "cancel",
            "stats",
            "top",
            "season",
            "history",
            "guide",
            "language",
            "help",
        ]
        assert (
            names(private)
            == names(english)
            == ["start", "newgame", "hand", "leave", "cancel", "stats", "guide", "language", "forget", "help"]
        )
        assert descriptions(group)["newgame"] == "Fungua meza ya karata katika kikundi hiki"
        assert descriptions(english)["hand"] == "Send my cards again"
        # A group reads its own language whatever a member's app says; a private chat the app's.
        assert api.menu_commands(sim.users[0], sim.group_id) == group
        assert api.menu_commands(sim.users[0]) == english
        assert api.menu_commands(nobody) == private
        assert "Kadi" in api.bot_descriptions[""] and "Niongeze" in api.bot_descriptions[""]
        assert "Add me to your group" in api.bot_descriptions["en"]
        assert len(api.bot_short_descriptions[""]) <= 120 and "Kiswahili" in api.bot_short_descriptions[""]
        assert "Swahili and English" in api.bot_short_descriptions["en"]
    first_start = len(api.calls)
    async with start_bot(KARATA_GROUP_LANGUAGE="sw"):
        pass
    again = {method for method, _params in api.calls[first_start:]}
    assert not again & PROFILE_SETTERS, "a restart sets nothing that is already set"


async def test_a_new_player_is_welcomed_and_learns_a_game_in_the_bot(api, start_bot):
    sim = simulation(api, count=1)
    nobody = api.add_user(1100, "Neema", language_code=None)
    api.set_member(sim.group_id, nobody, "member")
    async with start_bot(KARATA_GROUP_LANGUAGE="sw"):
        await api.user_starts_bot(nobody)
        welcome = await api.wait_until(lambda: api.last_message(nobody.id), what="the welcome")
        assert "Karibu!" in welcome.plain and "Euchre ya Watatu" in welcome.plain
        assert button(welcome, "Niongeze").startswith("https://t.me/karata_bot?startgroup=")
        games = [label for row in welcome.buttons for label, _data in row if label.startswith("Jinsi ya kucheza")]
        assert games == [
            "Jinsi ya kucheza Lopti",
            "Jinsi ya kucheza Kadi",
            "Jinsi ya kucheza Pitch",
            "Jinsi ya kucheza Euchre ya Watatu",
            "Jinsi ya kucheza Tatu–Kumi na Tatu",
        ]

        await api.wait_for_answer(await api.press(nobody, nobody.id, welcome.message_id, button(welcome, "Pitch")))
        summary = await api.wait_until(
            lambda: api.last_message(nobody.id).message_id > welcome.message_id and api.last_message(nobody.id),
            what="the summary",
        )
        assert summary.plain.startswith("❓ Jinsi ya kucheza Pitch") and "turufu" in summary.plain
        await api.wait_for_answer(await api.press(nobody, nobody.id, summary.message_id, button(summary, "Mwongozo")))
        guide = await api.wait_until(
            lambda: api.last_message(nobody.id).message_id > summary.message_id and api.last_message(nobody.id),
            what="the guide",
        )
        assert "mnada" in guide.plain.lower()

        await api.send_text(nobody, nobody.id, "/help")
        helped = await api.wait_until(
            lambda: "/start" in (api.last_message(nobody.id).plain or "") and api.last_message(nobody.id),
            what="the private help",
        )
        # /newgame in the private chat is practice against computer players.
        assert "/newgame — Jizoeze" in helped.plain and "/guide —" in helped.plain
        # /cancel there closes the practice table, not a group's.
        assert "/cancel — Funga meza ya mazoezi" in helped.plain and "kikundi hiki" not in helped.plain

        await api.send_text(nobody, sim.group_id, "/help")
        in_group = await api.wait_until(lambda: api.last_message(sim.group_id), what="the group's help")
        for command in (
            "newgame",
            "table",
            "hand",
            "kadi",
            "rules",
            "endsession",
            "cancel",
            "stats",
            "top",
            "season",
            "history",
            "guide",
            "language",
        ):
            assert f"/{command} —" in in_group.plain
        assert "/cancel — Funga meza ya kikundi hiki" in in_group.plain
        assert "/start —" not in in_group.plain
        await api.send_text(nobody, sim.group_id, "/help kadi")
        kadi = await api.wait_until(
            lambda: "Kadi Moja" in (api.last_message(sim.group_id).plain or "") and api.last_message(sim.group_id),
            what="Kadi's summary",
        )
        assert len(kadi.plain) <= 1200


async def test_how_to_play_from_the_lobby_goes_to_the_pressers_private_chat(api, start_bot):
    sim = simulation(api, count=2, language="en")
    async with start_bot(KARATA_GROUP_LANGUAGE="sw"):
        await api.user_starts_bot(sim.users[0])
        await api.send_text(sim.users[0], sim.group_id, "/newgame kadi")
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        howto = button(lobby, "Jinsi ya kucheza")
        in_group = len(api.bot_messages(sim.group_id))

        answer = await api.wait_for_answer(await api.press(sim.users[0], sim.group_id, lobby.message_id, howto))
        assert "gumzo" in answer["text"]
        summary = await api.wait_until(
            lambda: (
                "Kadi Moja" in (api.last_message(sim.users[0].id).plain or "") and api.last_message(sim.users[0].id)
            ),
            what="the summary in private",
        )
        assert summary.plain.startswith("❓ Jinsi ya kucheza Kadi"), "in the group's language"

        # Never opened the private chat: the toast's link opens it and shows the same there.
        answer = await api.wait_for_answer(await api.press(sim.users[1], sim.group_id, lobby.message_id, howto))
        assert answer["url"] == "https://t.me/karata_bot?start=how-sw-kadi"
        await api.open_link(sim.users[1], answer["url"])
        shown = await api.wait_until(lambda: api.last_message(sim.users[1].id), what="the summary after the link")
        assert shown.plain.startswith("❓ Jinsi ya kucheza Kadi")
        assert len(api.bot_messages(sim.group_id)) == in_group, "the group's budget is kept for the game"


async def test_a_swahili_groups_players_read_swahili_until_they_choose(api, start_bot):
    sim = simulation(api, count=3, language="en")
    sim.users[2].language_code = None
    opener, english, unknown = sim.users
    async with start_bot(KARATA_GROUP_LANGUAGE="sw") as application:
        sim.application = application
        # The opener sits at the table without the Join link and starts the bot plainly.
        await api.send_text(opener, sim.group_id, "/newgame kadi")
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        await api.user_starts_bot(opener)
        welcome = await api.wait_until(lambda: api.last_message(opener.id), what="the opener's welcome")
        assert "Karibu!" in welcome.plain
        join = button(lobby, "Jiunge")
        for user in (english, unknown):
            await api.open_link(user, join)
            joined = await api.wait_until(lambda user=user: api.last_message(user.id), what="the join")
            assert "Umejiunga" in joined.plain
        await api.wait_for_answer(await api.press(opener, sim.group_id, lobby.message_id, button(lobby, "Anza")))
        await sim.shown()
        for user in sim.users:
            assert "Karata zako" in hand_of(api, user), user.first_name
        assert api.menu_commands(english)[0]["description"] == "Karibu, na jinsi ya kucheza kila mchezo"

        await api.send_text(english, english.id, "/language")
        chooser = await api.wait_until(
            lambda: "lugha" in (api.last_message(english.id).plain or "") and api.last_message(english.id),
            what="the chooser",
        )
        await api.wait_for_answer(await api.press(english, english.id, chooser.message_id, "G:en"))
        await sim.shown()
        assert "Your hand" in hand_of(api, english)
        assert "Karata zako" in hand_of(api, unknown)
        assert api.menu_commands(english)[0]["description"] == "Welcome, and how to play each game"
