"""The operator's routes on the bot's HTTP server: `/healthz` and `/metrics`.

`/healthz` answers 200 only when the database answers and updates are arriving: a getUpdates
answered (polling: the long poll is answered at least every few seconds even when nobody
writes) or a webhook delivery within `KARATA_HEALTH_SECONDS`. A quiet webhook bot receives
nothing for hours, so there the bot asks Telegram (getWebhookInfo) instead: the webhook is ours
and no update is waiting for us. Otherwise 503 with a one-line reason.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from telegram.error import TelegramError
from telegram.ext import Application

from bot.services import Liveness, services_of
from engine.registry import available_games
from handlers.context import KARATA
from tables.census import open_tables
from tables.metrics import Metrics
from tables.models import LIVE

log = logging.getLogger(__name__)

# The database's answer and Telegram's, each within this (seconds): a health check must answer.
PROBE_SECONDS = 5.0


def health_routes(application: Application, liveness: Liveness, metrics: Metrics) -> list[web.RouteDef]:
    settings = services_of(application).settings
    bound = settings.health_seconds
    webhook = settings.mode.value == "webhook"

    async def healthz(_request: web.Request) -> web.Response:
        reason = await _database_problem(application)
        if reason is None and liveness.quiet_for() > bound:
            if not webhook:
                reason = f"no getUpdates answered for {liveness.quiet_for():.0f} s"
            else:
                reason = await _webhook_problem(application, settings)
                if reason is None:
                    liveness.saw_updates()  # Telegram holds nothing for us: a quiet group, not a dead bot
        if reason is not None:
            return web.Response(status=503, text=f"unhealthy: {reason}\n")
        return web.Response(text="ok\n")

    async def metrics_page(_request: web.Request) -> web.Response:
        await _count_open_tables(application, metrics)
        metrics.queue_depth.set(services_of(application).gate.waiting())
        body = generate_latest(metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    return [web.get("/healthz", healthz), web.get("/metrics", metrics_page)]


async def _database_problem(application: Application) -> str | None:
    karata = application.bot_data.get(KARATA)
    if karata is None:
        return "starting"
    try:
        await asyncio.wait_for(karata.store.database.all("SELECT 1"), PROBE_SECONDS)
    except Exception as error:  # any failure means the same to the operator: no database
        return f"the database does not answer ({type(error).__name__})"
    return None


async def _webhook_problem(application: Application, settings) -> str | None:
    try:
        info = await asyncio.wait_for(application.bot.get_webhook_info(), PROBE_SECONDS)
    except (TelegramError, TimeoutError) as error:
        return f"no webhook delivery, and Telegram does not answer ({type(error).__name__})"
    if info.url != settings.webhook_url:
        return "the webhook registered with Telegram is not this bot's URL"
    if info.pending_update_count:
        return f"no webhook delivery, and {info.pending_update_count} updates wait at Telegram"
    return None


async def _count_open_tables(application: Application, metrics: Metrics) -> None:
    karata = application.bot_data.get(KARATA)
    if karata is None:
        return
    counts = await open_tables(karata.store)
    # Every game and status is listed, at 0 too: a series that vanishes cannot be graphed or alerted on.
    for game in {*available_games(), *(game for game, _status in counts)}:
        for status in LIVE:
            metrics.open_tables.labels(game, status).set(counts.get((game, status), 0))
