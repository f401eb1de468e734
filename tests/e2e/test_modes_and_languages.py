"""Webhook mode, the group's and the player's languages, and the private "your turn" nudge."""

from __future__ import annotations

import json
import socket

import httpx
import pytest

from tests.e2e.conftest import simulation

pytestmark = pytest.mark.asyncio


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_webhook_mode_registers_the_url_and_answers_posted_updates(api, start_bot):
    sim = simulation(api)
    port = free_port()
    overrides = {
        "KARATA_MODE": "webhook",
        "KARATA_WEBHOOK_URL": "https://karata.example/hook",
        "KARATA_HTTP_LISTEN": "127.0.0.1",
        "KARATA_HTTP_PORT": port,
        "KARATA_WEBHOOK_SECRET": "s3cret-token",
    }
    async with start_bot(**overrides):
        assert api.webhook["url"] == "https://karata.example/hook"
        assert api.webhook["secret_token"] == "s3cret-token"
        update = {
            "update_id": 1,
            "message": {
                "message_id": 5,
                "date": 0,
                "chat": {"id": sim.group_id, "type": "supergroup", "title": "Karata demo"},
                "from": {"id": sim.users[0].id, "is_bot": False, "first_name": "Amina"},
                "text": "/newgame kadi",
                "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
            },
        }
        async with httpx.AsyncClient() as client:
            forged = await client.post(
                f"http://127.0.0.1:{port}/hook",
                content=json.dumps(update),
                headers={"Content-Type": "application/json"},
            )
            assert forged.status_code == 403, "an update without the secret token is refused"
            garbage = await client.post(
                f"http://127.0.0.1:{port}/hook",
                content=b"{not json",
                headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret-token"},
            )
            assert garbage.status_code == 400, "a body that is not an update is refused"
            listed = await client.post(
                f"http://127.0.0.1:{port}/hook",
                content=b"[1, 2]",
                headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret-token"},
            )
            assert listed.status_code == 400, "JSON that is not an object is no update either"
            posted = await client.post(
                f"http://127.0.0.1:{port}/hook",
                content=json.dumps(update),
                headers={"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": "s3cret-token"},
            )
            assert posted.status_code == 200
        lobby = await api.wait_until(sim.table_message, what="the lobby")
        assert "Kadi" in lobby.plain


async def test_an_admin_sets_the_groups_language_and_players_keep_the_one_they_chose(api, start_bot):
    sim = simulation(api, language="sw")
    async with start_bot(KARATA_GROUP_LANGUAGE="sw"):
        await api.send_text(sim.users[1], sim.group_id, "/language")
        chooser = await api.wait_until(lambda: api.last_message(sim.group_id), what="chooser")
        english = next(data for row in chooser.buttons for label, data in row if label == "English")
        refused = await api.wait_for_answer(await api.press(sim.users[1], sim.group_id, chooser.message_id, english))
        assert "msimamizi" in refused["text"].lower() or "admin" in refused["text"].lower()
        await api.wait_for_answer(await api.press(sim.users[0], sim.group_id, chooser.message_id, english))
        # One player chose Swahili for themselves; the others never chose.
        await api.user_starts_bot(sim.users[0])
        await api.send_text(sim.users[0], sim.users[0].id, "/language")
        own = await api.wait_until(
            lambda: next((m for m in api.bot_messages(sim.users[0].id) if "lugha" in (m.plain or "")), None),
            what="the private chooser",
        )
        await api.wait_for_answer(await api.press(sim.users[0], sim.users[0].id, own.message_id, "G:sw"))
        await sim.open_table("kadi")
        assert "Players" in sim.table_message().plain or "Round" in sim.table_message().plain

        def hand(user):
            return next(m.plain for m in reversed(api.bot_messages(user.id)) if (m.plain or "").startswith("🎲"))

        # A player's choice wins everywhere; the others read the group's language they joined from.
        assert "Raundi" in hand(sim.users[0])
        assert "Round" in hand(sim.users[1])


async def test_a_player_who_does_not_move_gets_a_nudge_that_goes_away(api, start_bot):
    sim = simulation(api)
    async with start_bot(KARATA_NUDGE_SECONDS=0.3) as application:
        sim.application = application
        await sim.open_table("kadi")
        first = next(
            user for user in sim.users if sim.hand_message(user) and "Your turn" in sim.hand_message(user).plain
        )

        def nudged():
            return [m for m in api.bot_messages(first.id) if "🔔" in (m.plain or "")]

        nudge = (await api.wait_until(nudged, timeout=60, what="the nudge"))[0]
        while not api.message(first.id, nudge.message_id).deleted:
            assert await sim.step()
        assert api.message(first.id, nudge.message_id).deleted
