"""The Mini App on the bot's one HTTP server, when KARATA_WEBAPP_URL is set (docs/MINIAPP.md):
its routes under /app/, the live hub on the tables' change feed (the publisher asks it who has
the app open), the chats' buttons, and the private chats' menu button."""

from __future__ import annotations

import logging

from aiohttp import web as http
from telegram import MenuButtonWebApp, WebAppInfo
from telegram.error import TelegramError
from telegram.ext import Application

from bot.services import services_of
from bot.settings import Settings
from bot.web import WebServer
from handlers.context import KARATA, Karata
from handlers.i18n import translator
from handlers.webapp.api import webapp
from handlers.webapp.live import LiveTables

log = logging.getLogger(__name__)

PREFIX = "/app/"


def mount_webapp(application: Application, web: WebServer, settings: Settings) -> LiveTables | None:
    """Serve the app and start its hub; None (nothing changes) when it is off."""
    if not settings.webapp_url:
        return None
    karata: Karata = application.bot_data[KARATA]
    publisher = karata.publisher
    live = LiveTables(karata.service.feed, publisher.yield_to)
    publisher.presence = live
    publisher.webapp_url = settings.webapp_url
    publisher.webapp_name = settings.webapp_name
    # The page loads its files relative to /app/: "/app" (an operator's URL without the slash)
    # goes there, its query kept.
    web.add_routes([http.get(PREFIX.rstrip("/"), _to_prefix)])
    web.mount(PREFIX, webapp(karata, live, application.bot, settings.token))
    services_of(application).live = live
    return live


async def _to_prefix(request: http.Request) -> http.StreamResponse:
    query = request.query_string
    raise http.HTTPPermanentRedirect(PREFIX + ("?" + query if query else ""))


async def set_menu_button(application: Application, settings: Settings) -> None:
    """Every private chat's menu button opens the app (on the player's latest table)."""
    if not settings.webapp_url:
        return
    _ = translator(settings.group_language)
    button = MenuButtonWebApp("🃏 " + _("Open the table"), WebAppInfo(settings.webapp_url))
    try:
        await application.bot.set_chat_menu_button(menu_button=button)
    except TelegramError as error:
        log.warning("could not set the menu button to the Mini App: %s", error)
