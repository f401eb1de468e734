"""The people, chats and clock the fake Bot API tests share."""

from __future__ import annotations

import contextlib

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from fakeapi import FakeBotAPI

TOKEN = "123456:TEST-token"
ALICE, BOB, CAROL = 111, 222, 333
GROUP = -1001234567890


class Clock:
    """A clock the test moves by hand, so measured times are exact and waits take no time."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def kb(*rows):
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


@contextlib.asynccontextmanager
async def running(**fake_options):
    """A started fake with Alice (creator) and Bob (member, Swahili) in GROUP, Carol outside it,
    and a real telegram.Bot talking to it: yields (fake, bot, alice, bob)."""
    async with FakeBotAPI(bot_username="karata_bot", **fake_options) as fake:
        alice = fake.add_user(ALICE, "Alice", username="alice")
        bob = fake.add_user(BOB, "Bob", language_code="sw")
        fake.add_user(CAROL, "Carol")
        fake.add_group(GROUP, "Card table", members={ALICE: "creator", BOB: "member"})
        async with Bot(TOKEN, base_url=fake.base_url, base_file_url=fake.base_file_url) as bot:
            yield fake, bot, alice, bob
