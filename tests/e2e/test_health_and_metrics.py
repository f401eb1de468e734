"""What an operator's monitoring reads over HTTP from the running bot: /healthz and /metrics."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.services import services_of
from tests.e2e.conftest import simulation
from tests.kadi.test_kadi_helpers import build_deck
from tests.tables.matches import QUICK_KADI, winning_policy

pytestmark = pytest.mark.asyncio

QUICK = " ".join(f"{name}={json.dumps(value)}" for name, value in QUICK_KADI.items())


async def get(application, path: str) -> tuple[int, str]:
    port = services_of(application).web.port
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}{path}") as response:
            return response.status, await response.text()


def samples(page: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(page)
        for sample in family.samples
    }


def words_of(page: str) -> list[str]:
    """Everything a /metrics page says but its figures: families' names and help, samples'
    names, label names and label values."""
    found = []
    for family in text_string_to_metric_families(page):
        found += [family.name, family.documentation]
        for sample in family.samples:
            found += [sample.name, *sample.labels, *sample.labels.values()]
    return found


def value(page: str, name: str, **labels: str) -> float:
    return samples(page).get((name, tuple(sorted(labels.items()))), 0.0)


async def test_health_is_ok_while_updates_arrive_and_503_once_they_stop(api, start_bot):
    amina = api.add_user(1001, "Amina")
    async with start_bot(KARATA_HEALTH_SECONDS=1) as application:
        # Bounds against a hung test, not speeds: a loaded machine may take many seconds.
        deadline = time.monotonic() + 60
        while (answer := await get(application, "/healthz"))[0] != 200 and time.monotonic() < deadline:
            await api.user_starts_bot(amina)  # an update arrives
            await asyncio.sleep(0.05)
        assert answer == (200, "ok\n")
        # The long poll ends: no update can arrive any more.
        await application.updater.stop()
        deadline = time.monotonic() + 60
        while (answer := await get(application, "/healthz"))[0] == 200 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        status, text = answer
        assert status == 503
        assert text.startswith("unhealthy: no getUpdates answered for")


async def test_a_quiet_webhook_bot_is_healthy_while_telegram_holds_nothing_for_it(api, start_bot):
    settings = {
        "KARATA_MODE": "webhook",
        "KARATA_WEBHOOK_URL": "https://karata.example/hook",
        "KARATA_HEALTH_SECONDS": 0.01,
    }
    async with start_bot(**settings) as application:
        await asyncio.sleep(0.05)  # nothing delivered within the bound
        assert await get(application, "/healthz") == (200, "ok\n")
        api.webhook["url"] = "https://somebody.else/hook"  # another process took the webhook
        await asyncio.sleep(0.05)
        status, text = await get(application, "/healthz")
        assert status == 503 and "not this bot's URL" in text


async def test_metrics_move_with_a_played_match_and_name_nobody(api, start_bot):
    sim = simulation(api)
    players = [str(user.id) for user in sim.users]
    async with start_bot() as application:
        karata = application.bot_data["karata"]
        deck = build_deck(players, players[-1], hands={players[0]: ["5H", "5S", "5D", "5C", "9C"]}, start="6H")
        karata.service.lobby.deal_override = lambda table: (players[-1], [deck])
        status, before = await get(application, "/metrics")
        assert status == 200
        assert value(before, "karata_open_tables", game="kadi", status="playing") == 0

        await sim.open_table("kadi", QUICK)  # a command, joins by link, and the Start press
        status, during = await get(application, "/metrics")
        assert value(during, "karata_open_tables", game="kadi", status="playing") == 1
        assert value(during, "karata_updates_total", kind="command") >= 1
        assert value(during, "karata_updates_total", kind="callback_query") >= 1
        assert value(during, "karata_press_seconds_count") >= 1
        assert value(during, "karata_bot_api_calls_total", method="answerCallbackQuery", outcome="ok") >= 1

        # Telegram answers one post 429: counted, and the chat's flood wait too.
        api.flood("sendMessage", retry_after=1)
        table = await karata.store.live_table(sim.group_id, 0)
        while (loaded := await karata.service.load(table.table_id)).table.status == "playing":
            player = loaded.game.to_act(loaded.state)[0]
            action = winning_policy(loaded.game, loaded.state, player, players[0])
            assert (await karata.service.play.act(table.table_id, player, loaded.table.version, action)).ok
        await karata.publisher.flush()  # the round's results are posted: the refused post, then again

        status, after = await get(application, "/metrics")
        assert value(after, "karata_matches_finished_total", game="kadi") == 1
        assert value(after, "karata_open_tables", game="kadi", status="playing") == 0
        assert value(after, "karata_bot_api_429_total", method="sendMessage") == 1
        assert value(after, "karata_bot_api_calls_total", method="sendMessage", outcome="429") == 1
        assert value(after, "karata_flood_waits_total") == 1
        assert value(after, "karata_bot_api_calls_total", method="sendMessage", outcome="ok") > value(
            during, "karata_bot_api_calls_total", method="sendMessage", outcome="ok"
        )
        assert "karata_flood_gate_waiting" in after and "karata_start_time_seconds" in after
        # Nobody's name, id or words: only kinds, games, methods and outcomes. Every word of the
        # page is read (names, help, label values); the figures themselves are numbers, whose
        # digits may happen to contain an id's (a start time of …1001… seconds).
        words = " ".join(words_of(after))
        for private in [*(user.first_name for user in sim.users), *players, str(sim.group_id), "newgame"]:
            assert private not in words, private


async def test_the_images_healthcheck_command_reads_healthz(api, start_bot, monkeypatch, capsys):
    from bot import healthcheck

    async with start_bot(KARATA_HEALTH_SECONDS=1) as application:
        monkeypatch.setenv("KARATA_HTTP_PORT", str(services_of(application).web.port))
        assert await asyncio.to_thread(healthcheck.main) == 0
        await application.updater.stop()
        deadline = time.monotonic() + 60  # a bound, not a speed
        while await asyncio.to_thread(healthcheck.main) == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        capsys.readouterr()
        assert await asyncio.to_thread(healthcheck.main) == 1
        assert "unhealthy: no getUpdates answered" in capsys.readouterr().out
    assert healthcheck.main() == 1  # nobody listens any more
    assert "does not answer" in capsys.readouterr().out
