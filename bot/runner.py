"""Run the Application inside an existing event loop: `karata run`, the demo and the end-to-end
tests all start the bot this way.

Starting by hand does what `Application.run_polling` would (post_init, the updater, start) and
undoes it in reverse; around it runs the bot's one HTTP server (bot/web.py), which receives the
webhook's updates in webhook mode and serves the operator's and the Mini App's routes in both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import AsyncIterator

from telegram import Update
from telegram.error import InvalidToken
from telegram.ext import Application

from bot.app import build_application, wait_for_telegram, webhook_path, webhook_secret
from bot.backup import DatabaseInUse, DatabaseLock
from bot.health import health_routes
from bot.services import services_of
from bot.settings import Settings
from bot.web import WebServer, bind, webhook_routes
from bot.webapp import mount_webapp, set_menu_button
from tables.database import is_postgresql
from tables.postgres_db import BotClaim

log = logging.getLogger(__name__)

# getUpdates' long poll: an open connection that Telegram answers as soon as an update comes.
POLL_TIMEOUT_SECONDS = 10
TOKEN_REVOKED = (
    "karata run: Telegram refused BOT_TOKEN while the bot ran (revoked?); get the current one from @BotFather"
)


class TokenRefused(SystemExit):
    """Raised with one human line."""


@contextlib.asynccontextmanager
async def running_application(
    settings: Settings, poll_timeout: int = 1, listener: socket.socket | None = None
) -> AsyncIterator[Application]:
    """The bot running; its HTTP server on `listener` when it was bound already (bot/web.py, `bind`)."""
    async with _database_claimed(settings), _running(settings, poll_timeout, listener) as application:
        yield application


@contextlib.asynccontextmanager
async def _database_claimed(settings: Settings) -> AsyncIterator[None]:
    """An SQLite file is this bot's while it runs: `karata restore` and a second bot wait for it.
    A PostgreSQL database may serve a fleet of bots: each token's claim is its own."""
    if not is_postgresql(settings.db_path):
        lock = DatabaseLock(settings.db_path)
        lock.acquire("two bots on one database would undo each other's moves")
        try:
            yield
        finally:
            lock.release()
        return
    claim = BotClaim(settings.db_path, settings.bot_id)
    if not await claim.take():
        raise DatabaseInUse(
            "karata: a bot with this token already runs on this database; two would undo each other's moves"
        )
    try:
        yield
    finally:
        await claim.release()


@contextlib.asynccontextmanager
async def _running(settings: Settings, poll_timeout: int, listener: socket.socket | None) -> AsyncIterator[Application]:
    application = build_application(settings)
    web = WebServer(settings.http_listen, settings.http_port, listener=listener)
    services = services_of(application)
    services.web = web
    webhook = settings.mode.value == "webhook"
    liveness = services.liveness
    web.add_routes(health_routes(application, liveness, services.metrics))
    if webhook:
        web.add_routes(
            webhook_routes(application, webhook_path(settings), webhook_secret(settings), liveness.saw_updates)
        )
    assert application.updater is not None
    updater = application.updater
    # Each step that succeeded is undone in reverse, also when a later step fails (a database
    # that fails while migrating must not leave connections open behind a one-line error).
    async with contextlib.AsyncExitStack() as undo:
        await application.initialize()
        undo.push_async_callback(_shut_down, application)
        if application.post_init:
            await application.post_init(application)
        undo.push_async_callback(_post_stop, application)
        mount_webapp(application, web, settings)
        await web.start()
        await set_menu_button(application, settings)
        if webhook:
            # Telegram keeps undelivered updates while the bot is down and posts them once it is back.
            await application.bot.set_webhook(
                settings.webhook_url or "", secret_token=webhook_secret(settings), allowed_updates=Update.ALL_TYPES
            )
        else:
            await updater.start_polling(
                poll_interval=0.0, timeout=poll_timeout, allowed_updates=Update.ALL_TYPES, bootstrap_retries=-1
            )
        await application.start()
        # Inputs stop first (the long poll, the webhook and the Mini App), then the updates
        # already taken are handled.
        undo.push_async_callback(application.stop)
        undo.push_async_callback(web.stop)
        undo.push_async_callback(_stop_updater, application)
        yield application


async def _stop_updater(application: Application) -> None:
    if application.updater is not None and application.updater.running:
        # Polling that gave up on a refused token ends with InvalidToken: `_serve` says it.
        with contextlib.suppress(InvalidToken):
            await application.updater.stop()


async def _post_stop(application: Application) -> None:
    if application.post_stop:
        await application.post_stop(application)


async def _shut_down(application: Application) -> None:
    await application.shutdown()
    if application.post_shutdown:
        await application.post_shutdown(application)


def run(settings: Settings) -> None:
    # The port first: a port another program has is said at once, not once Telegram answers.
    with bind(settings.http_listen, settings.http_port) as listener:
        asyncio.run(wait_for_telegram(settings))
        asyncio.run(_serve(settings, listener))


async def _serve(settings: Settings, listener: socket.socket | None = None) -> None:
    """Run until SIGTERM or SIGINT (Ctrl-C), then stop gracefully; or until Telegram refuses the
    token (revoked at @BotFather), then stop too and say so: a bot that can no longer poll or
    send must not look alive to `restart: unless-stopped` or a process supervisor."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with running_application(settings, POLL_TIMEOUT_SECONDS, listener) as application:
        refused = services_of(application).token_refused
        waits = [loop.create_task(stop.wait()), loop.create_task(refused.wait())]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for wait in waits:
            wait.cancel()
        log.info("stopping")
    if refused.is_set():
        raise TokenRefused(TOKEN_REVOKED)
