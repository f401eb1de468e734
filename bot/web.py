"""The bot's one HTTP server: Telegram's webhook, the operator's /healthz and /metrics, and the
Mini App all share it (one port, one aiohttp application), in polling and in webhook mode.

The server is plain HTTP: in front of it the operator puts a TLS proxy (docs/OPERATIONS.md).
Routes are added before it starts; `mount` hangs a sub-application (the Mini App) under a prefix.
"""

from __future__ import annotations

import errno
import hmac
import json
import logging
import os
from collections.abc import Callable

from aiohttp import web
from telegram import Update
from telegram.ext import Application

log = logging.getLogger(__name__)

# Telegram's updates are small; a body larger than this is not one of them.
MAX_UPDATE_BYTES = 1 << 20
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class CannotListen(SystemExit):
    """Raised with one human line: the address and port, why, and the setting to change."""


def _why_not(error: OSError, listen: str, port: int) -> str:
    # asyncio's own text repeats the address; the system's name for the errno is enough.
    reason = os.strerror(error.errno) if error.errno else str(error)
    if error.errno == errno.EADDRINUSE:
        advice = "another program (a second bot?) has it: set KARATA_HTTP_PORT to a free port"
    elif error.errno == errno.EACCES:
        advice = "ports below 1024 need privileges: set KARATA_HTTP_PORT to 1024 or above"
    else:
        advice = "set KARATA_HTTP_LISTEN to an address of this machine (127.0.0.1, or 0.0.0.0 for all)"
    return f"karata: the HTTP server cannot listen on {listen}:{port} ({reason.lower()}); {advice}"


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
        try:
            await site.start()
        except OSError as error:
            await self.stop()
            raise CannotListen(_why_not(error, self.listen, self.port)) from None
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
