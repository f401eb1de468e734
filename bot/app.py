"""Builds the python-telegram-bot Application: one place that wires every service and handler."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from telegram import BotCommand, Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    PollAnswerHandler,
    filters,
)

from bot.i18n import N_, translator
from bot.service import TableService
from bot.settings import Settings
from bot.storage import Store
from bot.timers import Timers
from handlers import basics, lobby, play
from handlers.context import Services
from handlers.publisher import Publisher

log = logging.getLogger(__name__)

COMMANDS = (
    ("newgame", N_("Open a card table in this group")),
    ("hand", N_("Send my cards again")),
    ("table", N_("Post the table again")),
    ("cancel", N_("Close this group's table")),
    ("kadi", N_("Call “Kadi Moja!”")),
    ("rules", N_("Show the house rules")),
    ("endsession", N_("End this table's session")),
    ("language", N_("Choose Swahili or English")),
    ("help", N_("What Karata can do")),
)


def build_application(settings: Settings) -> Application:
    application = (
        ApplicationBuilder()
        .token(settings.token)
        .base_url(settings.telegram_api_base_url)
        .base_file_url(settings.base_file_url)
        .rate_limiter(
            AIORateLimiter(
                overall_max_rate=settings.bot_messages_per_second,
                group_max_rate=settings.group_messages_per_minute,
                max_retries=3,
            )
        )
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
        .build()
    )
    application.bot_data["settings"] = settings
    application.add_handler(CommandHandler("start", basics.start))
    application.add_handler(CommandHandler("help", basics.help_command))
    application.add_handler(CommandHandler("newgame", lobby.new_game))
    application.add_handler(CommandHandler("cancel", lobby.cancel_command))
    application.add_handler(CommandHandler("hand", play.hand_command))
    application.add_handler(CommandHandler("table", play.table_command))
    application.add_handler(CommandHandler("language", basics.language_command))
    application.add_handler(CommandHandler("kadi", play.call_at_table))
    application.add_handler(CommandHandler("rules", play.rules_command))
    application.add_handler(CommandHandler("endsession", play.end_session_command))
    application.add_handler(
        MessageHandler(filters.ChatType.GROUPS & filters.REPLY & filters.TEXT & ~filters.COMMAND, play.call_at_table)
    )
    application.add_handler(
        MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, play.private_text)
    )
    application.add_handler(CallbackQueryHandler(basics.on_callback))
    application.add_handler(PollAnswerHandler(play.poll_answer))
    application.add_error_handler(basics.on_error)
    return application


async def _post_init(application: Application) -> None:
    settings: Settings = application.bot_data["settings"]
    store = Store(settings.db_path)
    await store.open()
    bot = application.bot
    publisher = Publisher(
        bot,
        store,
        lambda: bot.username,
        table_edit_interval=settings.table_edit_seconds,
        group_language=settings.group_language,
    )
    service = TableService(store, publisher, settings.turn_seconds, round_pause_seconds=settings.round_pause_seconds)
    if application.job_queue is not None:
        service.scheduler = Timers(
            application.job_queue, service, settings.warn_seconds, settings.nudge_seconds, settings.vote_seconds
        )
    application.bot_data["karata"] = Services(store, service, publisher)
    await _set_commands(application)
    if application.job_queue is not None:
        idle = settings.session_idle_hours * 3600

        async def end_idle(_context: object) -> None:
            await service.end_idle_tables(idle)

        application.job_queue.run_repeating(end_idle, interval=600, first=60, name="idle-tables")
    resumed = await service.resume_after_restart()
    for table in resumed:
        loaded = await service.load(table.table_id)
        if loaded is not None and loaded.state is not None:
            await publisher.post_table(loaded.table, loaded.game, loaded.state)
    if resumed:
        log.info("resumed %d tables with fresh turn timers", len(resumed))


async def _set_commands(application: Application) -> None:
    # Swahili is the default menu; English speakers get theirs by language_code.
    for language, code in (("sw", None), ("en", "en")):
        _ = translator(language)
        commands = [BotCommand(name, _(description)) for name, description in COMMANDS]
        await application.bot.set_my_commands(commands, language_code=code)


async def _post_shutdown(application: Application) -> None:
    found: Services | None = application.bot_data.get("karata")
    if found is not None:
        await found.publisher.flush()
        await found.store.close()


def webhook_options(settings: Settings) -> dict[str, object]:
    """Where the webhook server listens; its path is the path of the public URL."""
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    return {
        "listen": settings.webhook_listen,
        "port": settings.webhook_port,
        "url_path": urlsplit(settings.webhook_url or "").path.lstrip("/"),
        "webhook_url": settings.webhook_url,
        "secret_token": secret,
        "allowed_updates": Update.ALL_TYPES,
    }


def run(settings: Settings) -> None:
    application = build_application(settings)
    if settings.mode.value == "webhook":
        application.run_webhook(**webhook_options(settings))  # type: ignore[arg-type]
    else:
        application.run_polling(allowed_updates=Update.ALL_TYPES)
