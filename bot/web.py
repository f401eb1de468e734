"""The bot's one HTTP server: Telegram's webhook, the operator's /healthz and /metrics, and the
Mini App all share it (one port, one aiohttp application), in polling and in webhook mode.

The server is plain HTTP: in front of it the operator puts a TLS proxy (docs/OPERATIONS.md).
Routes are added before it starts; `mount` hangs a sub-application (the Mini App) under a prefix.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Callable

from aiohttp import web
from telegram import Update
from telegram.ext import Application

log = logging.getLogger(__name__)

# Telegram's updates are small; a body larger than this is not one of them.
MAX_UPDATE_BYTES = 1 << 20
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebServer:
    def __init__(self, listen: str, port: int):
        self.listen = listen
        # 0 lets the system choose a free port (tests); `port` is the bound one once started.
        self.port = port
        self.app = web.Application(client_max_size=MAX_UPDATE_BYTES)
        self._runner: web.AppRunner | None = None

    def add_routes(self, routes: list[web.RouteDef]) -> None:
        self.app.add_routes(routes)

    def mount(self, prefix: str, subapp: web.Application) -> None:
        self.app.add_subapp(prefix, subapp)

    async def start(self) -> None:
        # No access log: a line per press would drown the log's events (and webhook paths may
        # be secret).
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("HTTP server listening on %s:%d", self.listen, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def webhook_routes(
    application: Application, path: str, secret: str | None, delivered: Callable[[], None] | None = None
) -> list[web.RouteDef]:
    """Telegram posts each update to `path`; with a secret, an update without it is refused, so
    that nobody who guesses the URL can play for someone else."""

    async def receive(request: web.Request) -> web.Response:
        if secret is not None and not hmac.compare_digest(request.headers.get(SECRET_HEADER, ""), secret):
            return web.Response(status=403, text="wrong secret token")
        try:
            data = json.loads(await request.read())
            if not isinstance(data, dict):  # de_json takes any JSON and fails on it with AttributeError
                raise ValueError("not an object")
            update = Update.de_json(data, application.bot)
        except (ValueError, TypeError, KeyError):
            return web.Response(status=400, text="not an update")
        await application.update_queue.put(update)
        if delivered is not None:
            delivered()  # the health check's sign that Telegram reaches us
        return web.Response(text="ok")

    return [web.post("/" + path.lstrip("/"), receive)]
