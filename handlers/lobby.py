"""Opening a table (/newgame and its game picker), joining by deep link, leaving, starting, cancelling."""

from __future__ import annotations

import json
from html import escape

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from engine.registry import available_games
from handlers import telegram_io
from handlers.callback_data import LobbyOp, PickGame, PlayAgain
from handlers.context import (
    chat_translator,
    effective,
    is_admin,
    remember,
    seat_for,
    services,
    table_of_chat,
    thread_of,
)
from handlers.games import renderer_for
from handlers.publisher import game_title, rows
from handlers.refusals import outcome_text, refusal_text

MAX_ARGUMENT = 64


def parse_option_args(args: list[str]) -> tuple[dict[str, object], int | None, str | None]:
    """`key=value` words to options (JSON values: 5, true, "pagat"); `timer=N` is the turn timer.

    Returns (options, timer seconds or None, the first bad word or None).
    """
    options: dict[str, object] = {}
    timer = None
    for word in args:
        key, sep, raw = word.partition("=")
        if not sep or not key or len(word) > MAX_ARGUMENT:
            return options, timer, word[:MAX_ARGUMENT]
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        if key == "timer":
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3600:
                return options, timer, word
            timer = value
        else:
            options[key] = value
    return options, timer, None


async def new_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/newgame [GAME] [option=value ...] in a group."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type == Chat.PRIVATE:
        await message.reply_text(_("Add me to a group and send /newgame there."))
        return
    await remember(context, user)
    args = list(context.args or [])
    games = available_games()
    if not args:
        buttons = [
            InlineKeyboardButton(game_title(game, _), callback_data=PickGame(game).encode()) for game in games
        ]
        await message.reply_text(_("Which game?"), reply_markup=InlineKeyboardMarkup(rows(buttons, 2)))
        return
    game = args[0].lower()
    if game not in games:
        await message.reply_text(
            _("I do not know the game {game}. Games: {games}", game=escape(args[0][:MAX_ARGUMENT]), games=", ".join(games)),
            parse_mode="HTML",
        )
        return
    options, timer, bad = parse_option_args(args[1:])
    if bad is not None:
        await message.reply_text(
            _("I did not understand {word}. Write options as name=value, for example timer=60.", word=escape(bad)),
            parse_mode="HTML",
        )
        return
    outcome = await services(context).service.open_lobby(chat.id, thread_of(message), game, seat_for(user), options, timer)
    if not outcome.ok:
        detail = escape(outcome.message or "")
        await message.reply_text(
            refusal_text(outcome.code, outcome.message, {**outcome.values, "detail": detail}, _), parse_mode="HTML"
        )


async def pick_game(update: Update, context: ContextTypes.DEFAULT_TYPE, game: str) -> None:
    query = update.callback_query
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    await remember(context, user)
    if game not in available_games():
        await telegram_io.answer(query, refusal_text("unknown_game", None, {"game": game}, _))
        return
    outcome = await services(context).service.open_lobby(chat.id, thread_of(message), game, seat_for(user), {}, None)
    if not outcome.ok:
        await telegram_io.answer(query, outcome_text(outcome, _), alert=True)
        return
    await telegram_io.answer(query)
    await telegram_io.delete_quietly(context.bot, chat.id, message.message_id)


async def join_by_link(update: Update, context: ContextTypes.DEFAULT_TYPE, table_id: int) -> None:
    """`/start j<table>` in the private chat: the Join button's deep link."""
    chat, user, message = effective(update)
    _ = await remember(context, user)
    found = services(context)
    outcome = await found.service.join(table_id, seat_for(user))
    if outcome.code == "already_joined" or (outcome.ok and outcome.table is not None):
        group = outcome.table or await found.store.get_table(table_id)
        assert group is not None
        await message.reply_text(
            _("You joined the {game} table. Your cards will arrive here when the game starts.", game=game_title(group.game, _))
        )
        return
    await message.reply_text(outcome_text(outcome, _))


async def lobby_op(update: Update, context: ContextTypes.DEFAULT_TYPE, data: LobbyOp) -> None:
    query = update.callback_query
    chat, user, _message = effective(update)
    _ = await chat_translator(context, chat, user)
    service = services(context).service
    table = await services(context).store.get_table(data.table_id)
    if table is None or table.chat_id != chat.id:
        await telegram_io.answer(query, refusal_text("no_table", None, {}, _))
        return
    if data.op == "leave":
        outcome = await service.leave(data.table_id, user.id)
    elif data.op == "start":
        outcome = await service.start(data.table_id, user.id)
        if outcome.ok:
            await offer_carry_over(context, data.table_id)
    elif data.op in ("agree", "refuse"):
        outcome = await service.consent(data.table_id, user.id, data.op == "agree")
    else:
        outcome = await service.cancel(data.table_id, user.id, await is_admin(context, chat.id, user.id))
    if outcome.ok:
        await telegram_io.answer(query)
    else:
        await telegram_io.answer(query, outcome_text(outcome, _))


async def play_again(update: Update, context: ContextTypes.DEFAULT_TYPE, data: PlayAgain) -> None:
    query = update.callback_query
    chat, user, _message = effective(update)
    _ = await chat_translator(context, chat, user)
    outcome = await services(context).service.play_again(data.table_id, user.id, seat_for(user))
    if outcome.ok:
        await telegram_io.answer(query)
    else:
        await telegram_io.answer(query, outcome_text(outcome, _))


async def cancel_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/cancel in a group: close this chat's table (its creator or an admin)."""
    found_table = await table_of_chat(update, context)
    if found_table is None:
        return
    _, table = found_table
    chat, user, message = effective(update)
    outcome = await services(context).service.cancel(table.table_id, user.id, await is_admin(context, chat.id, user.id))
    if not outcome.ok:
        await message.reply_text(outcome_text(outcome, _))


async def offer_carry_over(context: ContextTypes.DEFAULT_TYPE, table_id: int) -> None:
    """At a new session's start, the opener proposes what the last session leaves behind (Lopti:
    restoring its rules, decided by a vote that does not use round 1's)."""
    found = services(context)
    loaded = await found.service.load(table_id)
    if loaded is None or loaded.state is None or loaded.table.status != "playing":
        return
    table = loaded.table
    previous = await found.store.previous_session(table.chat_id, table.thread_id, table.game, table.table_id)
    if previous is None:
        return
    earlier = await found.service.load(previous.table_id)
    if earlier is None or earlier.state is None:
        return
    view = found.publisher.player_view(earlier.table, earlier.game, earlier.state, None)
    seated = {seat.player: seat.player for seat in table.seats}
    action = renderer_for(table.game).carry_over(view, seated)
    if action is not None:
        await found.service.act_now(table_id, str(table.creator_id), action)
