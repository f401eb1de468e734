"""Where the bot's HTTP server listens when nobody says: this machine only (loopback), so that
/metrics and the Mini App's API do not answer on every interface of a polling bot."""

from __future__ import annotations

import pytest

from bot.settings import load_settings
from bot.web import WebServer

pytestmark = pytest.mark.asyncio


async def test_by_default_the_http_server_listens_on_loopback_only(monkeypatch):
    for name in ("KARATA_HTTP_LISTEN", "KARATA_WEBHOOK_LISTEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BOT_TOKEN", "123456:ABCDEFGHIJ")
    settings = load_settings()
    server = WebServer(settings.http_listen, 0)
    await server.start()
    try:
        addresses = {address[0] for address in server._runner.addresses}
    finally:
        await server.stop()
    assert addresses == {"127.0.0.1"}


async def test_all_interfaces_only_when_the_operator_says_so(monkeypatch):
    monkeypatch.setenv("BOT_TOKEN", "123456:ABCDEFGHIJ")
    monkeypatch.setenv("KARATA_HTTP_LISTEN", "0.0.0.0")
    assert load_settings().http_listen == "0.0.0.0"
