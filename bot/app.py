"""The composition root: builds the python-telegram-bot Application and wires every part once.

Reading `build_application` top to bottom is the table of contents of the bot: the flood gate
every call passes, the handlers by what the user does, and (at start-up) the store, the change
feed, the table service with its timers, the courier and the publisher.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import ssl
import tempfile
import time
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from telegram import Bot, Update
from telegram.error import InvalidToken, NetworkError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    PollAnswerHandler,
    TypeHandler,
    filters,
)

from bot.http_client import AiohttpRequest
from bot.loop_lag import LoopLagProbe
from bot.services import SERVICES, Liveness, Services, services_of
from bot.settings import Settings
from engine.core.protocol import CHAMPION_WINDOW, VOTE_WINDOW
from handlers.chat import (
    arena_nights,
    basics,
    chat_changes,
    howto,
    lobby,
    play,
    privacy,
    profile,
    records,
    redelivery,
    rule_builder,
    seasons,
    status,
)
from handlers.chat.arena_nights import EDIT_EVERY_SECONDS, ArenaBoard
from handlers.chat.context import BotData, KarataContext
from handlers.context import KARATA, Karata
from handlers.delivery.chat_keeper import ChatKeeper
from handlers.delivery.courier import Courier
from handlers.delivery.flood import FloodGate, FloodLimiter
from handlers.delivery.precedence import UpdatesFirst
from handlers.delivery.publisher import Publisher
from handlers.delivery.screens import watch_url
from handlers.moves import Moves
from handlers.presentation.callback_data import (
    ArenaOp,
    ForgetMe,
    HowTo,
    LeaveTable,
    LobbyOp,
    MatchReplay,
    PickGame,
    PickLanguage,
    PlayAgain,
    RuleDraft,
    TableButton,
    TreeNode,
)
from handlers.recent import Recent
from tables.arena_nights import ArenaNights
from tables.call_log import CallLog
from tables.database import is_postgresql
from tables.feed import ChangeFeed
from tables.metrics import Metrics
from tables.service import TableService
from tables.store import Store
from tables.table_core import Timing
from tables.thinking import Thinker

log = logging.getLogger(__name__)

# How long a graceful stop waits for the last deliveries before it closes the connection.
STOP_DELIVERY_SECONDS = 10.0


def tls_for(base_url: str) -> ssl.SSLContext | bool:
    """One TLS context for both HTTP clients: loading the certificate store costs about 0.3 s of
    every start, once per client if each makes its own. A plain-HTTP Bot API (a local server)
    has no certificate to check."""
    if urlsplit(base_url).scheme != "https":
        return False
    return httpx.create_ssl_context()


def call_log_path(settings: Settings) -> str | None:
    """Where the last minute's group calls are kept across a restart: beside a SQLite database;
    with PostgreSQL (no file of ours), in this machine's temporary folder, one file per bot, which
    a restarted process or container finds again (docs/DECISIONS.md); none for `:memory:`."""
    if settings.db_path == ":memory:":
        return None
    if is_postgresql(settings.db_path):
        return str(Path(tempfile.gettempdir()) / f"karata-bot{settings.bot_id}.calls")
    return settings.db_path + ".calls"


def build_application(settings: Settings) -> Application:
    # The operator's figures and health (bot/health.py): every part counts into this bot's own.
    metrics = Metrics()
    gate = FloodGate(
        settings.bot_messages_per_second,
        settings.group_messages_per_minute,
        metrics=metrics,
        telegram_second=settings.telegram_second,
    )
    # What the process before this one sent to each group in the last minute still counts.
    group_calls = CallLog(call_log_path(settings), gate.minute)
    gate.remember(group_calls.recent())
    gate.on_group_call = group_calls.record
    services = Services(settings, metrics, gate, FloodLimiter(gate), UpdatesFirst(metrics=metrics), liveness=Liveness())
    tls = tls_for(settings.telegram_api_base_url)
    # A token revoked while the bot runs: `karata run` stops (bot/runner.py) rather than idle.
    refused = services.token_refused.set
    # An answered getUpdates: updates are arriving.
    polls = AiohttpRequest(connection_pool_size=1, tls=tls, on_answer=services.liveness.saw_updates, on_refused=refused)
    calls = AiohttpRequest(connection_pool_size=256, tls=tls, on_refused=refused)
    application = (
        ApplicationBuilder()
        .token(settings.token)
        .base_url(settings.telegram_api_base_url)
        .base_file_url(settings.base_file_url)
        # PTB's own pool sizes: many calls at once, one long poll.
        .request(calls)
        .get_updates_request(polls)
        .rate_limiter(services.limiter)
        # Tables are independent: one table's slow update never holds up another's; and updates
        # go before publishing (handlers/delivery/precedence.py).
        .concurrent_updates(services.updates)
        .context_types(ContextTypes(context=KarataContext, bot_data=BotData))
        .post_init(_post_init)
        .post_stop(_post_stop)
        .post_shutdown(_post_shutdown)
        .build()
    )
    application.bot_data[SERVICES] = services
    # An update delivered again goes no further; who sent an update is recorded before any
    # handler runs; an update handled to its end is remembered.
    application.add_handler(TypeHandler(Update, redelivery.drop_repeated), group=-2)
    application.add_handler(TypeHandler(Update, basics.track_user), group=-1)
    application.add_handler(TypeHandler(Update, redelivery.remember_handled), group=1)
    application.add_handler(CommandHandler("start", basics.start))
    application.add_handler(CommandHandler("help", basics.help_command))
    application.add_handler(CommandHandler("language", basics.language_command))
    application.add_handler(CommandHandler("guide", howto.guide_command))
    application.add_handler(CommandHandler("newgame", lobby.new_game))
    application.add_handler(CommandHandler("cancel", lobby.cancel_command))
    application.add_handler(CommandHandler("hand", play.hand_command))
    application.add_handler(CommandHandler("table", play.table_command))
    application.add_handler(CommandHandler("kadi", play.said_at_table))
    application.add_handler(CommandHandler("rules", play.rules_command))
    application.add_handler(CommandHandler("vote", play.vote_command))
    application.add_handler(CommandHandler("endsession", play.end_session_command))
    application.add_handler(CommandHandler("leave", play.leave_command))
    application.add_handler(CommandHandler("stats", records.stats_command))
    application.add_handler(CommandHandler("top", records.top_command))
    application.add_handler(CommandHandler("history", records.history_command))
    application.add_handler(CommandHandler("season", seasons.season_command))
    application.add_handler(CommandHandler("arena", arena_nights.arena_command))
    application.add_handler(CommandHandler("forget", privacy.forget_command))
    application.add_handler(CommandHandler("status", status.status_command))
    application.add_handler(
        MessageHandler(filters.ChatType.GROUPS & filters.REPLY & filters.TEXT & ~filters.COMMAND, play.said_at_table)
    )
    application.add_handler(
        MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, play.private_text)
    )
    application.add_handler(CallbackQueryHandler(play.press_action, pattern=TreeNode.matches))
    application.add_handler(CallbackQueryHandler(play.press_table_button, pattern=TableButton.matches))
    application.add_handler(CallbackQueryHandler(rule_builder.press_draft, pattern=RuleDraft.matches))
    application.add_handler(CallbackQueryHandler(lobby.lobby_op, pattern=LobbyOp.matches))
    application.add_handler(CallbackQueryHandler(play.press_leave, pattern=LeaveTable.matches))
    application.add_handler(CallbackQueryHandler(lobby.pick_game, pattern=PickGame.matches))
    application.add_handler(CallbackQueryHandler(lobby.play_again, pattern=PlayAgain.matches))
    application.add_handler(CallbackQueryHandler(arena_nights.press_arena, pattern=ArenaOp.matches))
    application.add_handler(CallbackQueryHandler(records.send_replay, pattern=MatchReplay.matches))
    application.add_handler(CallbackQueryHandler(basics.pick_language, pattern=PickLanguage.matches))
    application.add_handler(CallbackQueryHandler(howto.press_howto, pattern=HowTo.matches))
    application.add_handler(CallbackQueryHandler(privacy.press_forget, pattern=ForgetMe.matches))
    application.add_handler(CallbackQueryHandler(basics.unknown_button))
    application.add_handler(PollAnswerHandler(play.poll_answer))
    # The chat changed under its tables: the bot removed or blocked, a group upgraded.
    application.add_handler(ChatMemberHandler(chat_changes.my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chat_changes.migrated))
    application.add_error_handler(basics.on_error)
    return application


def timing_of(settings: Settings) -> Timing:
    return Timing(
        turn_seconds=settings.turn_seconds,
        warn_seconds=settings.warn_seconds,
        nudge_seconds=settings.nudge_seconds,
        round_pause_seconds=settings.round_pause_seconds,
        window_seconds={VOTE_WINDOW: settings.vote_seconds, CHAMPION_WINDOW: settings.champion_seconds},
        computer_seconds=settings.computer_seconds,
    )


async def _post_init(application: Application) -> None:
    services = services_of(application)
    settings, metrics = services.settings, services.metrics
    store = Store(settings.db_path, bot_id=settings.bot_id, fleet_records=settings.records == "fleet")
    store.metrics = metrics
    await store.open()
    feed = ChangeFeed()
    thinker = Thinker(settings.computer_workers, metrics)
    service = TableService(store, feed, timing_of(settings), application.job_queue, thinker=thinker, metrics=metrics)
    yield_to = services.updates.quiet
    courier = Courier(services.gate, yield_to)
    bot = application.bot
    moves = Moves(service, feed, partial(rule_builder.open_amendment, bot))
    arenas = ArenaNights(store, service.lobby, application.job_queue, minute=settings.arena_minute_seconds)
    feed.listen(arenas)
    board = ArenaBoard(bot, store, arenas, lambda: bot.username, settings.group_language,
                       every=EDIT_EVERY_SECONDS * settings.telegram_second)  # fmt: skip
    arenas.watchers.append(board)
    services.arena_board = board
    publisher = Publisher(
        bot, service, feed, courier, lambda: bot.username, settings.group_language, moves.branches, yield_to=yield_to
    )
    # The keeper and the publisher tell each other of chats; every refused call reaches the keeper.
    keeper = publisher.watch = ChatKeeper(service, publisher, courier)
    board.moved = keeper.moved
    # A running arena table's "👀 Watch" link, where the Mini App is served with a short name.
    board.watch_url = lambda table: (
        watch_url(bot.username, publisher.webapp_name, table) if publisher.webapp_url else None
    )
    services.limiter.refused = keeper.refused
    application.bot_data[KARATA] = Karata(
        store=store,
        service=service,
        publisher=publisher,
        courier=courier,
        keeper=keeper,
        moves=moves,
        arenas=arenas,
        metrics=metrics,
        recent_updates=Recent(),
        group_language=settings.group_language,
        guides_dir=Path(settings.guides_dir) if settings.guides_dir else None,
        owners=settings.owners,
    )
    # Menus and descriptions need not hold up the first update either.
    background = asyncio.get_running_loop().create_task(profile.publish_profile(bot, settings.group_language))
    if application.job_queue is not None:
        idle = settings.session_idle_hours * 3600

        async def end_idle(_context: object) -> None:
            await service.lobby.end_idle_tables(idle)

        application.job_queue.run_repeating(end_idle, interval=600, first=60, name="idle-tables")

        async def forget_old_updates(_context: object) -> None:
            await store.forget_old_updates()

        # Not at start-up only: a bot that runs for weeks would keep every update it handled.
        application.job_queue.run_repeating(forget_old_updates, interval=3600, first=60, name="old-updates")

        async def announce_seasons(_context: object) -> None:
            await seasons.announce_ended(bot, application.bot_data[KARATA])

        # Soon after the start too: a season that ended while the bot was down is announced then.
        application.job_queue.run_repeating(
            announce_seasons, interval=seasons.ANNOUNCE_EVERY_SECONDS, first=1, name="season-ends"
        )
    await store.seasons.begin(seasons.now())
    started = time.monotonic()
    resumed = await service.timekeeper.resume_after_restart()
    await arenas.resume()
    metrics.resumed_tables.set(resumed)
    # Writing thousands of fresh deadlines must not hold up the first update.
    deadlines = asyncio.get_running_loop().create_task(service.timekeeper.store_fresh_deadlines())
    services.background = (background, deadlines)
    publisher.start()
    services.loop_lag = LoopLagProbe(metrics.loop_lag)
    services.loop_lag.start()
    if resumed:
        log.info("resumed %d running tables with fresh timers in %.2f s", resumed, time.monotonic() - started)
    # What start-up built (the libraries' modules and classes, the catalogs, the engines' tables)
    # lives as long as the process: left to the collector, every full collection walked it
    # again and stopped every press under way for about 0.1 s (docs/PERFORMANCE.md).
    gc.freeze()


async def _post_stop(application: Application) -> None:
    """A graceful stop: what players were about to be shown goes out before the connection closes
    (what does not fit in the time is sent at the next start)."""
    found: Karata | None = application.bot_data.get(KARATA)
    loop_lag = services_of(application).loop_lag
    if loop_lag is not None:
        loop_lag.stop()
    # With the token refused nothing can be delivered: no wait.
    flush = 0.0 if services_of(application).token_refused.is_set() else STOP_DELIVERY_SECONDS
    arena_board = services_of(application).arena_board
    if arena_board is not None:
        arena_board.stop()  # a restart draws every unfinished arena again
    if found is not None and not await found.publisher.stop(flush):
        log.warning("stopping with undelivered messages; they go out at the next start")


async def _post_shutdown(application: Application) -> None:
    found: Karata | None = application.bot_data.get(KARATA)
    if found is not None:
        found.service.computers.thinker.close()
        await found.store.close()


def webhook_path(settings: Settings) -> str:
    """The webhook's path on the bot's HTTP server is the path of its public URL."""
    return urlsplit(settings.webhook_url or "").path or "/"


def webhook_secret(settings: Settings) -> str | None:
    return settings.webhook_secret.get_secret_value() if settings.webhook_secret else None


async def wait_for_telegram(settings: Settings, first_delay: float = 1.0, longest_delay: float = 60.0) -> None:
    """Ask the Bot API who we are until it answers, waiting longer each time; InvalidToken
    (Telegram refused the token) is raised at once, since waiting will not mend it."""
    bot = Bot(settings.token, base_url=settings.telegram_api_base_url)
    delay = first_delay
    while True:
        try:
            async with bot:
                return
        except InvalidToken:
            raise
        except NetworkError as error:
            log.warning(
                "cannot reach the Bot API at %s (%s); trying again in %.0f s",
                urlsplit(settings.telegram_api_base_url).netloc,
                type(error).__name__,
                delay,
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, longest_delay)
