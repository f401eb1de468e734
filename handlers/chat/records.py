"""Records after the matches: /stats (and /stats off|on), /top [GAME], /history and its replay buttons."""

from __future__ import annotations

import json
import logging
from html import escape

from telegram import Chat, Update, User
from telegram.error import BadRequest, Forbidden

from engine.registry import available_games
from handlers.chat import seasons, telegram_io
from handlers.chat.context import KarataContext, chat_translator, effective, pressed, seat_for, user_translator
from handlers.delivery.outbox import chat_gone
from handlers.presentation.callback_data import MatchReplay
from handlers.presentation.render.common import game_title
from handlers.presentation.render.records import (
    board_text,
    hidden_text,
    history_keyboard,
    history_text,
    replay_caption,
    stats_text,
)

log = logging.getLogger(__name__)

MAX_ARGUMENT = 64
ALL_TIME = "all"  # /top all: the ratings of all time rather than the season's standings


async def stats_command(update: Update, context: KarataContext) -> None:
    """/stats: the sender's record in this group (or across all groups in the private chat);
    as a reply in a group, the record of the player replied to; /stats off|on: leaderboards
    list the sender as "a player", or by name again."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    store = context.karata.store
    choice = (context.args or [""])[0].lower()
    if choice in ("off", "on"):
        await store.set_stats_hidden(user.id, choice == "off")
        if choice == "off":
            text = _("Leaderboards now list you as “a player”. /stats on shows your name again.")
        else:
            text = _("Leaderboards show your name again.")
        await telegram_io.reply(message, text)
        return
    if choice:
        await telegram_io.reply(message, _("Write /stats, /stats off or /stats on."))
        return
    in_group = chat.type != Chat.PRIVATE
    replied = message.reply_to_message.from_user if in_group and message.reply_to_message else None
    subject = _replied_to(replied)
    if subject is not None and subject.id != user.id and await store.records.hidden(subject.id):
        await telegram_io.reply(message, hidden_text(seat_for(subject).name, _), html=True)
        return
    subject = subject or user
    records = await store.records.of_player(subject.id, chat.id if in_group else None)
    await telegram_io.reply(message, stats_text(seat_for(subject).name, records, in_group, _), html=True)


def _replied_to(author: User | None) -> User | None:
    """Whose record a reply asks for: a person's (a reply to a bot's message is the sender's own)."""
    return author if author is not None and not author.is_bot else None


async def top_command(update: Update, context: KarataContext) -> None:
    """/top [GAME]: the game's standings in the group's running season (by default the game
    played last here); /top all [GAME], or a group without seasons: the ratings of all time."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type == Chat.PRIVATE:
        await telegram_io.reply(message, _("Send /top in a group: each group has its own leaderboards."))
        return
    words = [word.lower() for word in context.args or []]
    all_time = ALL_TIME in words
    named = [word for word in (context.args or []) if word.lower() != ALL_TIME]
    records = context.karata.store.records
    played = await records.games_rated(chat.id)
    if named:
        game = named[0].lower()
        games = available_games()
        if game not in games:
            # The games by name, each with the word /top takes for it.
            listed = ", ".join(f"{escape(game_title(game, _))} (<code>{game}</code>)" for game in games)
            text = _("I do not know the game {game}. Games: {games}", game=escape(named[0][:MAX_ARGUMENT]),
                     games=listed)  # fmt: skip
            await telegram_io.reply(message, text, html=True)
            return
    elif played:
        game = played[0]
    else:
        await telegram_io.reply(message, _("No finished matches in this group yet. Start one with /newgame."))
        return
    season = None if all_time else await context.karata.store.seasons.current(chat.id, seasons.now())
    if season is not None:
        text = await seasons.season_board(context.karata, chat.id, game, season, _)
        await telegram_io.reply(message, text, html=True)
        return
    board = await records.board(chat.id, game)
    others = f"/top {ALL_TIME}" if all_time else "/top"  # asked for all time: the other games' boards too
    await telegram_io.reply(message, board_text(board, played, _, others), html=True)


async def history_command(update: Update, context: KarataContext) -> None:
    """/history: the group's last finished matches, each with a button for its replay file."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type == Chat.PRIVATE:
        await telegram_io.reply(message, _("Send /history in a group."))
        return
    matches = await context.karata.store.records.history(chat.id)
    if not matches:
        await telegram_io.reply(message, _("No finished matches in this group yet. Start one with /newgame."))
        return
    await telegram_io.reply(message, history_text(matches, _), history_keyboard(matches), html=True)


async def send_replay(update: Update, context: KarataContext) -> None:
    """A /history button: the match's replay file goes to the presser's private chat (only one
    person asked for it; the group's message budget stays for the games)."""
    query, data, chat, user, _message, _ = await pressed(update, context, MatchReplay.parse)
    store = context.karata.store
    replay = await store.records.replay(data.table_id)
    if replay is None or replay.chat_id != chat.id:
        await telegram_io.answer(query, _("I did not understand that button."))
        return
    known = await store.get_user(user.id)
    if known is None or not known.dm_ok:
        await telegram_io.answer(query, _("Open my private chat and press Start, then press this again."), alert=True)
        return
    await telegram_io.answer(query, _("I am sending the replay file to our private chat."))
    reader = await user_translator(context, user.id)
    document = json.dumps(replay.data, ensure_ascii=False, indent=1).encode()
    try:
        await context.bot.send_document(
            user.id,
            document,
            filename=f"karata-{replay.game}-{replay.table_id}.json",
            caption=replay_caption(replay.game, replay.finished_at, replay.names, reader),
        )
    except (Forbidden, BadRequest) as error:
        # A refusal (403) reaches the chat keeper through the flood limiter; a 400 "chat not
        # found" is as lasting (no such private chat), so it is reported the same way: the next
        # press is told to open the chat instead of failing again.
        if isinstance(error, BadRequest) and chat_gone(error):
            await context.karata.keeper.user_unreachable(user.id)
        log.info("could not send a replay to %s: %s", user.id, error)
