"""/status for the bot's owners (KARATA_OWNER_IDS), in private: how the bot is doing right now."""

from __future__ import annotations

import time
from importlib import metadata

from telegram import Chat, Update

from handlers.chat import telegram_io
from handlers.chat.context import KarataContext, chat_translator, effective
from handlers.i18n import Translator
from handlers.presentation.render.common import game_title
from tables.census import open_tables


def version() -> str:
    try:
        return metadata.version("karata")
    except metadata.PackageNotFoundError:
        return "?"


def status_text(
    _: Translator, running: str, uptime: float, tables: dict[tuple[str, str], int], presses: int, errors: int
) -> str:
    hours, minutes = int(uptime // 3600), int(uptime % 3600 // 60)
    lines = [
        _("Karata {version}, running for {hours} h {minutes} min.", version=running, hours=hours, minutes=minutes),
        _("Presses in the last hour: {count}", count=presses),
        _("Errors in the last hour: {count}", count=errors),
        _("Open tables:") if tables else _("Open tables: none"),
    ]
    for game in sorted({game for game, _status in tables}):
        lobby, playing = tables.get((game, "lobby"), 0), tables.get((game, "playing"), 0)
        lines.append("  " + _("{game}: {playing} playing, {lobby} in the lobby", game=game_title(game, _),
                              playing=playing, lobby=lobby))  # fmt: skip
    return "\n".join(lines)


async def status_command(update: Update, context: KarataContext) -> None:
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    karata = context.karata
    if chat.type != Chat.PRIVATE or user.id not in karata.owners:
        await telegram_io.reply(message, _("/status is for the bot's owner, in our private chat."))
        return
    metrics = karata.metrics
    text = status_text(
        _, version(), time.monotonic() - metrics.started_monotonic, await open_tables(karata.store),
        metrics.recent_presses.count(), metrics.recent_errors.count(),
    )  # fmt: skip
    await telegram_io.reply(message, text)
