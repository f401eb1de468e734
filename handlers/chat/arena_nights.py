"""Arena nights in a group: /arena GAME MINUTES [options] (and an admin's /arena anyone|bots
on|off, /arena stop), joining by the standings message's deep link, pausing and coming back
from the private chat, and the group's one standings message (`ArenaBoard`)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable

from telegram import Chat, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import ExtBot

from handlers.chat import languages, telegram_io
from handlers.chat.context import (
    KarataContext,
    chat_translator,
    effective,
    is_admin,
    is_member,
    pressed,
    seat_for,
    thread_of,
)
from handlers.chat.lobby import parse_option_args
from handlers.delivery.flood import BACKGROUND, POST, TABLE, Rate
from handlers.i18n import Translator, reader_translator, translator
from handlers.presentation.callback_data import ArenaLink, ArenaOp
from handlers.presentation.render.arena_nights import (
    WatchUrl,
    joined_markup,
    joined_text,
    own_line_text,
    podium_text,
    standings_markup,
    standings_text,
)
from tables.arena_nights import CANCELLED, OVER, Answer, ArenaNights, Standings
from tables.store import Store

log = logging.getLogger(__name__)

# The standings message is edited at most once in this many (Telegram) seconds: 6 calls of the
# group's 20 a minute at most, whatever the arena's size (docs/DECISIONS.md, "Arena nights").
EDIT_EVERY_SECONDS = 10.0
SETTINGS = ("anyone", "bots")


def refusal(code: str, _: Translator) -> str:
    texts = {
        "unknown_game": _("I do not know that game. Write /arena GAME MINUTES, for example /arena kadi 30."),
        "minutes": _("An arena lasts from 5 to 240 minutes."),
        "consent_option": _("An arena cannot use options every player must agree to."),
        "bad_option": _("One of those options is not right for this game."),
        "arena_exists": _("This group has an arena already."),
        "no_arena": _("That arena is not open any more."),
        "arena_over": _("That arena is over."),
        "already_in": _("You are in this arena already."),
        "not_in": _("You are not in this arena."),
        "not_open": _("This arena has started already."),
    }
    return texts.get(code, _("That did not work."))


def usage(_: Translator) -> str:
    return _(
        "Write /arena GAME MINUTES [options], for example /arena kadi 30: players join, and are seated at "
        "new tables as theirs finish until the time is up. Admins: /arena anyone on|off (who may open one), "
        "/arena bots on|off (computer players fill a missing seat), /arena stop."
    )


async def may_open(context: KarataContext, chat_id: int, user_id: int) -> bool:
    """An admin, or anyone where the group's admins allowed it (as the group's settings decide)."""
    anyone, _computers = await context.karata.store.arenas.settings_of(chat_id)
    return anyone or await is_admin(context, chat_id, user_id)


async def arena_command(update: Update, context: KarataContext) -> None:
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type == Chat.PRIVATE:
        await telegram_io.reply(message, _("Send /arena in a group: an arena is a group's competition."))
        return
    args = list(context.args or [])
    arenas = context.karata.arenas
    if not args:
        await telegram_io.reply(message, usage(_))
        return
    word = args[0].lower()
    if word in SETTINGS:
        await _setting(update, context, word, args[1:], _)
        return
    if word == "stop":
        live = await context.karata.store.arenas.live_in(chat.id)
        if live is None:
            await telegram_io.reply(message, refusal("no_arena", _))
        elif live.creator_id != user.id and not await is_admin(context, chat.id, user.id):
            await telegram_io.reply(message, _("Only the arena's opener or a group admin can do that."))
        else:
            await arenas.stop(live.arena_id)
        return
    if len(args) < 2 or not args[1].isdigit():
        await telegram_io.reply(message, usage(_))
        return
    if not await may_open(context, chat.id, user.id):
        await telegram_io.reply(
            message, _("Only a group admin can open an arena here (an admin can allow everyone: /arena anyone on).")
        )
        return
    options, _timer, bad = parse_option_args(args[2:])
    if bad is not None:
        await telegram_io.reply(message, refusal("bad_option", _))
        return
    answer = await arenas.open(chat.id, thread_of(message), word, seat_for(user), dict(options), int(args[1]))
    if not answer.ok:
        await telegram_io.reply(message, refusal(answer.code, _))


async def _setting(update: Update, context: KarataContext, word: str, rest: list[str], _: Translator) -> None:
    chat, user, message = effective(update)
    choice = rest[0].lower() if rest else ""
    if choice not in ("on", "off"):
        await telegram_io.reply(message, usage(_))
        return
    if not await is_admin(context, chat.id, user.id):
        await telegram_io.reply(message, _("Only a group admin can do that."))
        return
    await context.karata.store.arenas.set_setting(
        chat.id, "anyone" if word == "anyone" else "computers", choice == "on"
    )
    texts = {
        ("anyone", "on"): _("Anyone in this group may open an arena now."),
        ("anyone", "off"): _("Only admins may open an arena in this group now."),
        ("bots", "on"): _("In this group's arenas, computer players fill a seat nobody can take."),
        ("bots", "off"): _("In this group's arenas, only people sit at the tables."),
    }
    await telegram_io.reply(message, texts[(word, choice)])


async def join_by_link(update: Update, context: KarataContext, link: ArenaLink) -> None:
    """`/start a<arena>_<token>` in the private chat: the standings message's Join button."""
    chat, user, message = effective(update)
    karata = context.karata
    arena = await karata.store.arenas.get(link.arena_id)
    _ = await chat_translator(context, chat, user)
    if arena is None or arena.join_token != link.token:
        await telegram_io.reply(message, refusal("no_arena", _))
        return
    if not await is_member(context, arena.chat_id, user.id):
        await telegram_io.reply(message, _("Only members of the group can join."))
        return
    await languages.adopt_group_language(context, arena.chat_id, user.id)
    _ = await chat_translator(context, chat, user)
    answer = await karata.arenas.join(link.arena_id, link.token, seat_for(user))
    await _tell_joined(message, karata.arenas, answer, False, _)


async def _tell_joined(message, arenas: ArenaNights, answer: Answer, paused: bool, _: Translator) -> None:
    if not answer.ok and answer.code != "already_in":
        await telegram_io.reply(message, refusal(answer.code, _))
        return
    assert answer.arena is not None
    standings = await arenas.standings(answer.arena.arena_id)
    assert standings is not None
    await telegram_io.reply(
        message, joined_text(standings, paused, _), joined_markup(answer.arena.arena_id, paused, _), html=True
    )


async def press_arena(update: Update, context: KarataContext) -> None:
    """Start (the group's message: its opener, or who may open one) and pause/back (private)."""
    query, data, chat, user, message, _ = await pressed(update, context, ArenaOp.parse)
    arenas = context.karata.arenas
    arena = await context.karata.store.arenas.get(data.table_id)
    if arena is None:
        await telegram_io.answer(query, refusal("no_arena", _))
        return
    if data.op == "start":
        if arena.chat_id != chat.id:
            await telegram_io.answer(query, refusal("no_arena", _))
            return
        if user.id != arena.creator_id and not await is_admin(context, chat.id, user.id):
            await telegram_io.answer(query, _("Only the arena's opener or a group admin can do that."))
            return
        answer = await arenas.start(arena.arena_id)
        await telegram_io.answer(query, None if answer.ok else refusal(answer.code, _))
        return
    paused = data.op == "pause"
    answer = await arenas.pause(arena.arena_id, user.id, paused)
    if not answer.ok:
        await telegram_io.answer(query, refusal(answer.code, _))
        return
    await telegram_io.answer(query)
    standings = await arenas.standings(arena.arena_id)
    if standings is not None:
        try:
            await message.edit_text(
                joined_text(standings, paused, _),
                parse_mode=ParseMode.HTML,
                reply_markup=joined_markup(arena.arena_id, paused, _),
            )
        except TelegramError as error:
            log.info("arena answer not edited: %s", error)


class ArenaBoard:
    """Draws each arena's standings message in its group: every change is noted, and the message
    is redrawn from the stored arena at most once every `every` seconds (the newest wins, and an
    unchanged text costs no call). When an arena is over it posts the podium and tells each
    player their own line, once (`told`), also after a restart."""

    def __init__(
        self,
        bot: ExtBot[Rate],
        store: Store,
        arenas: ArenaNights,
        username: Callable[[], str],
        group_language: str,
        every: float = EDIT_EVERY_SECONDS,
        watch_url: WatchUrl | None = None,
    ):
        self.bot = bot
        self.store = store
        self.arenas = arenas
        self.username = username
        self.group_language = group_language
        self.every = every
        # Where a running table's "👀 Watch" link points (None: no link); wired by the composition root.
        self.watch_url = watch_url
        # The chat keeper's door for a group found upgraded (handlers/delivery/chat_keeper.py `moved`).
        self.moved: Callable[[int, int], Awaitable[None]] | None = None
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._last: dict[int, float] = {}

    def arena_changed(self, arena_id: int) -> None:
        if arena_id in self._pending:
            return  # the draw waiting will read the arena as it is then
        task = asyncio.get_running_loop().create_task(self._draw_later(arena_id))
        self._pending[arena_id] = task

    def stop(self) -> None:
        """Drop the draws waiting for their turn: the next start draws every unfinished arena."""
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()

    async def _draw_later(self, arena_id: int) -> None:
        try:
            wait = self._last.get(arena_id, float("-inf")) + self.every - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        finally:
            # Before reading: a change from now on gets a draw of its own.
            self._pending.pop(arena_id, None)
        try:
            await self.draw(arena_id)
        except Exception:
            log.exception("arena %s standings not drawn", arena_id)

    def join_url(self, arena_id: int, token: str) -> str:
        return f"https://t.me/{self.username()}?start={ArenaLink(arena_id, token).payload()}"

    async def draw(self, arena_id: int) -> None:
        standings = await self.arenas.standings(arena_id)
        if standings is None:
            return
        arena = standings.arena
        _ = translator(await self.store.chat_language(arena.chat_id) or self.group_language)
        text = standings_text(standings, _, self.watch_url)
        markup = standings_markup(standings, self.join_url(arena_id, arena.join_token), _)
        digest = hashlib.sha1(f"{text}|{markup.to_json() if markup else ''}".encode()).hexdigest()[:20]
        if digest != arena.shown:
            self._last[arena_id] = time.monotonic()
            try:
                message_id = await self._show(arena.chat_id, arena.thread_id, arena.message_id, text, markup)
            except ChatMigrated as error:
                # A supergroup now: the keeper moves the group's tables and arena there (its
                # message to be posted again), and the arena is drawn there.
                if self.moved is not None:
                    await self.moved(arena.chat_id, int(error.new_chat_id))
                    self.arena_changed(arena_id)
                return
            except BadRequest as error:
                if "not modified" not in str(error).lower():
                    # Deleted by someone, or never to be shown: the next change posts it anew.
                    log.info("arena standings in %s not shown: %s", arena.chat_id, error)
                    await self.store.arenas.record_message(arena_id, None, "")
                    return
                message_id = arena.message_id
            except Forbidden as error:  # the group is closed to the bot: nothing more to show
                log.info("arena standings in %s not shown: %s", arena.chat_id, error)
                message_id = arena.message_id
            except TelegramError as error:  # for a moment: drawn again after the interval
                log.warning("arena standings in %s not shown yet: %s", arena.chat_id, error)
                self.arena_changed(arena_id)
                return
            await self.store.arenas.record_message(arena_id, message_id, digest)
        if arena.status in (OVER, CANCELLED) and not arena.told:
            if arena.status == OVER and not await self._tell_the_end(standings, _):
                self.arena_changed(arena_id)
                return
            await self.store.arenas.mark_told(arena_id)

    async def _show(self, chat_id: int, thread_id: int, message_id: int | None, text: str, markup) -> int | None:
        if message_id is not None:
            await self.bot.edit_message_text(text, chat_id, message_id, parse_mode=ParseMode.HTML, reply_markup=markup,
                                             disable_web_page_preview=True, rate_limit_args=Rate(priority=TABLE))  # fmt: skip
            return message_id
        sent = await self.bot.send_message(chat_id, text, message_thread_id=thread_id or None,
                                           parse_mode=ParseMode.HTML, reply_markup=markup,
                                           disable_web_page_preview=True, rate_limit_args=Rate(priority=POST))  # fmt: skip
        return sent.message_id

    async def _tell_the_end(self, standings: Standings, _: Translator) -> bool:
        """The podium in the group, then each player's line; False when the podium could not be
        posted for a moment (nothing was sent: all of it is tried again)."""
        arena = standings.arena
        try:
            await self.bot.send_message(arena.chat_id, podium_text(standings, _), message_thread_id=arena.thread_id or None,
                                        parse_mode=ParseMode.HTML, rate_limit_args=Rate(priority=POST))  # fmt: skip
        except (Forbidden, BadRequest, ChatMigrated) as error:  # the players still get their lines
            log.info("arena podium in %s not posted: %s", arena.chat_id, error)
        except TelegramError as error:
            log.warning("arena podium in %s not posted yet: %s", arena.chat_id, error)
            return False
        languages = await self.store.languages_of(entrant.user_id for entrant in arena.entrants)
        for entrant in arena.entrants:
            reader = reader_translator(languages.get(entrant.user_id))
            text = own_line_text(standings, entrant.user_id, reader)
            if text is None:
                continue
            try:
                await self.bot.send_message(entrant.user_id, text, rate_limit_args=Rate(priority=BACKGROUND))
            except TelegramError as error:
                log.info("arena line not sent to %s: %s", entrant.user_id, error)
        return True
