"""The yardstick for bench_bot.py: a python-telegram-bot bot that does nothing but answer a press
and edit the pressed message, behind the same flood limiter as Karata.

/start sends a message with one button; each press is answered and the message is edited to
show the next number with a new button. Run by bench_bot.py as its own process:
BOT_TOKEN=... TELEGRAM_API_BASE_URL=... python benchmarks/noop_bot.py
With NOOP_HTTP=aiohttp it makes its calls with Karata's HTTP client (bot/http_client.py) instead
of PTB's default httpx one, so that the two bots' CPU can be compared with the same client too.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update  # noqa: E402
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, CommandHandler, ContextTypes  # noqa: E402

from bot.http_client import AiohttpRequest  # noqa: E402
from handlers.delivery.flood import FloodGate, FloodLimiter  # noqa: E402


def keyboard(number: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(f"press {number}", callback_data=f"n:{number}")]])


async def start(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text("0", reply_markup=keyboard(1))


async def press(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    number = int(query.data.split(":")[1])
    await query.answer()
    await query.edit_message_text(str(number), reply_markup=keyboard(number + 1))


def main() -> None:
    gate = FloodGate(int(os.environ.get("KARATA_BOT_RATE", "30")), int(os.environ.get("KARATA_GROUP_RATE", "20")))
    builder = (
        ApplicationBuilder()
        .token(os.environ["BOT_TOKEN"])
        .base_url(os.environ["TELEGRAM_API_BASE_URL"])
        .rate_limiter(FloodLimiter(gate))
        .concurrent_updates(True)
    )
    if os.environ.get("NOOP_HTTP") == "aiohttp":
        builder = builder.request(AiohttpRequest(tls=False)).get_updates_request(AiohttpRequest(1, tls=False))
    application = builder.build()
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CallbackQueryHandler(press))
    application.run_polling(allowed_updates=Update.ALL_TYPES)


if __name__ == "__main__":
    main()
