"""Seasons in a group: /season (and an admin's /season week|month|off), /top's season standings,
and the post of a season's champions when it ends (a job, bot/app.py)."""

from __future__ import annotations

import logging
import time

from telegram import Bot, Chat, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from handlers.chat import telegram_io
from handlers.chat.context import KarataContext, chat_translator, effective, is_admin, seat_for
from handlers.context import Karata
from handlers.delivery.flood import BACKGROUND, Rate
from handlers.i18n import Translator, translator
from handlers.presentation.render.seasons import (
    Champions,
    Placing,
    length_chosen_text,
    season_board_text,
    season_end_text,
    season_text,
)
from tables.seasons import LENGTHS, Due, Season

log = logging.getLogger(__name__)

# How often the announcer looks for a season that ended (a pass that finds none reads one row).
ANNOUNCE_EVERY_SECONDS = 300


def now() -> float:
    """The seasons' clock (a test moves it to a season's end)."""
    return time.time()


async def season_command(update: Update, context: KarataContext) -> None:
    """/season: the running season, when it ends, and the sender's place per game played in it;
    /season week|month|off (an admin): the group's season length."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type == Chat.PRIVATE:
        await telegram_io.reply(message, _("Send /season in a group: each group has its own seasons."))
        return
    seasons = context.karata.store.seasons
    choice = (context.args or [""])[0].lower()
    if choice:
        if choice not in LENGTHS:
            await telegram_io.reply(
                message, _("Write /season, or (an admin) /season week, /season month or /season off.")
            )
            return
        if not await is_admin(context, chat.id, user.id):
            await telegram_io.reply(message, _("Only a group admin can do that."))
            return
        await seasons.set_length(chat.id, choice, now())
        await telegram_io.reply(message, length_chosen_text(choice, _))
        return
    season = await seasons.current(chat.id, now())
    placings = []
    if season is not None:
        for game in await seasons.played(chat.id, season):
            lines = await seasons.standings(chat.id, game, season)
            mine = next((line for line in lines if line.user_id == user.id), None)
            if mine is not None:
                placings.append(Placing(game, mine, len(lines)))
    await telegram_io.reply(message, season_text(season, seat_for(user).name, placings, _), html=True)


async def season_board(karata: Karata, chat_id: int, game: str, season: Season, _: Translator) -> str:
    """/top's text while the group has seasons: the game's standings this season."""
    seasons = karata.store.seasons
    lines = await seasons.standings(chat_id, game, season)
    names = await seasons.names((line.user_id for line in lines), game)
    played = await seasons.played(chat_id, season)
    return season_board_text(game, season, lines, names, played, _)


async def announce_ended(bot: Bot, karata: Karata) -> None:
    """Post each ended season's champions in its group (one message a group, counted in its
    budget by the flood gate), once: a group is marked announced when Telegram took the post
    or refused the chat for good. The announcer moves on only when every group is done, so a
    post that failed for a moment is tried again at the next pass."""
    seasons = karata.store.seasons
    due, until = await seasons.due(now())
    done = True
    for item in due:
        try:
            await _announce(bot, karata, item)
        except ChatMigrated as error:
            # A supergroup now, unseen (its service messages never came): the keeper moves the
            # group's records there, and the next pass announces in it.
            await karata.keeper.moved(item.chat_id, error.new_chat_id)
            done = False
            continue
        except (Forbidden, BadRequest) as error:  # the chat is closed to the bot: nobody to tell
            log.info("season end not announced in %s: %s", item.chat_id, error)
        except TelegramError as error:
            log.warning("season end in %s not announced yet (%s); trying again later", item.chat_id, error)
            done = False
            continue
        await seasons.announced(item.chat_id, item.ended)
    if done:
        await seasons.checked(until)


async def _announce(bot: Bot, karata: Karata, item: Due) -> None:
    seasons = karata.store.seasons
    champions = []
    for game in sorted(await seasons.played(item.chat_id, item.ended)):
        lines = await seasons.standings(item.chat_id, game, item.ended)
        first = [line for line in lines if line.place == 1]
        if first:
            champions.append(Champions(game, [line.user_id for line in first], first[0].points))
    names = {}
    for champion in champions:
        names.update(await seasons.names(champion.user_ids, champion.game))
    _ = translator(await karata.store.chat_language(item.chat_id) or karata.group_language)
    # After the games' own calls: the post can wait a little, a player's turn cannot.
    await bot.send_message(item.chat_id, season_end_text(item.ended, champions, names, _), parse_mode=ParseMode.HTML,
                           rate_limit_args=Rate(priority=BACKGROUND))  # fmt: skip
