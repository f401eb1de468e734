"""/start (with its deep links), /help, /language, the callback router and the error handler."""

from __future__ import annotations

import logging

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.i18n import LANGUAGES, N_, translator
from handlers import lobby, play, telegram_io
from handlers.callback_data import (
    BadCallbackData,
    LobbyOp,
    PickGame,
    PickLanguage,
    PlayAgain,
    RuleDraft,
    TableButton,
    TreeNode,
    decode,
)
from handlers.context import chat_translator, effective, is_admin, remember, services

log = logging.getLogger(__name__)

LANGUAGE_NAMES = {"sw": "Kiswahili", "en": "English"}


def help_text(_) -> str:
    return "\n".join(
        [
            "<b>🃏 Karata</b>",
            _("I host card games in group chats: Lopti, Kadi, Pitch, Euchre for three and Three Thirteen."),
            "",
            _("/newgame: open a table in a group (pick a game, friends press Join)"),
            _("/hand: send my cards again"),
            _("/table: post the table again"),
            _("/cancel: close the table (its creator or an admin)"),
            _("/language: choose Swahili or English"),
        ]
    )


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in the private chat, plain or from a deep link (j<table>: join, h<table>: my cards)."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type != Chat.PRIVATE:
        await message.reply_text(help_text(_), parse_mode="HTML")
        return
    found = services(context)
    await remember(context, user)
    await found.store.set_dm_ok(user.id, True)
    payload = context.args[0] if context.args else ""
    if len(payload) > 1 and payload[1:].isdigit() and payload[0] in "jh":
        table_id = int(payload[1:])
        if payload[0] == "j":
            await lobby.join_by_link(update, context, table_id)
        else:
            table = await found.store.get_table(table_id)
            if table is None or table.seat_of(user.id) is None or table.status != "playing":
                await message.reply_text(_("You are not in a game right now."))
            else:
                await play.resend_hands(context, user.id, [table_id])
        return
    await message.reply_text(help_text(_), parse_mode="HTML")


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    await message.reply_text(help_text(_), parse_mode="HTML")


async def language_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/language: buttons for each catalog; in a group only an admin may change the group's."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    buttons = [
        InlineKeyboardButton(LANGUAGE_NAMES[code], callback_data=PickLanguage(code).encode()) for code in LANGUAGES
    ]
    prompt = _("Choose your language:") if chat.type == Chat.PRIVATE else _("Choose the group's language (admins):")
    await message.reply_text(prompt, reply_markup=InlineKeyboardMarkup([buttons]))


async def pick_language(update: Update, context: ContextTypes.DEFAULT_TYPE, data: PickLanguage) -> None:
    query = update.callback_query
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if data.language not in LANGUAGES:
        await telegram_io.answer(query, _("I did not understand that button."))
        return
    store = services(context).store
    if chat.type == Chat.PRIVATE:
        await store.set_user_language(user.id, data.language)
    elif await is_admin(context, chat.id, user.id):
        await store.set_chat_language(chat.id, data.language)
    else:
        await telegram_io.answer(query, _("Only a group admin can do that."))
        return
    chosen = translator(data.language)
    await telegram_io.answer(query)
    await telegram_io.edit_or_send(context.bot, chat.id, message.message_id, chosen(N_("Language: English")))


async def on_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every button press comes here first; forged or unknown data gets a toast and nothing else."""
    query = update.callback_query
    if query is None or update.effective_user is None or update.effective_chat is None:
        return
    try:
        data = decode(query.data)
    except BadCallbackData:
        _ = await chat_translator(context, update.effective_chat, update.effective_user)
        await telegram_io.answer(query, _("I did not understand that button."))
        return
    if isinstance(data, TreeNode):
        await play.press_action(update, context, data)
    elif isinstance(data, TableButton):
        await play.press_table_button(update, context, data)
    elif isinstance(data, RuleDraft):
        from handlers.rule_builder import press_draft

        await press_draft(update, context, data)
    elif isinstance(data, LobbyOp):
        await lobby.lobby_op(update, context, data)
    elif isinstance(data, PickGame):
        await lobby.pick_game(update, context, data.game)
    elif isinstance(data, PickLanguage):
        await pick_language(update, context, data)
    elif isinstance(data, PlayAgain):
        await lobby.play_again(update, context, data)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the failure (the log filter strips the token) and tell the presser something went wrong."""
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.callback_query is not None and update.effective_chat and update.effective_user:
        try:
            _ = await chat_translator(context, update.effective_chat, update.effective_user)
            await telegram_io.answer(update.callback_query, _("Something went wrong; please try again."))
        except Exception:  # the error handler must never raise
            log.debug("could not answer after an error", exc_info=True)
