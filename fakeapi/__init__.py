"""A fake Telegram Bot API server (real HTTP on 127.0.0.1) that the tests, benchmarks and the
offline demo run the real bot against.  Development tooling: of the product, only `karata demo`
(bot/demo.py) imports it."""

from fakeapi.errors import TelegramAPIError
from fakeapi.flood import BanViolation, FloodStats
from fakeapi.html import parse_html
from fakeapi.records import CallbackQuery, Document, FakeChat, FakeUser, MessageRecord
from fakeapi.server import FakeBotAPI
from fakeapi.text import utf16_len

__all__ = [
    "BanViolation",
    "CallbackQuery",
    "Document",
    "FakeBotAPI",
    "FakeChat",
    "FakeUser",
    "FloodStats",
    "MessageRecord",
    "TelegramAPIError",
    "parse_html",
    "utf16_len",
]
