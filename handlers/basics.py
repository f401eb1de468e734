"""/start (with its deep links), /help, /language, users seen, unknown buttons and the error handler."""

from __future__ import annotations

import logging

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.i18n import LANGUAGES, N_, Translator, first_language, translator
from handlers import lobby, play, telegram_io
from handlers.callback_data import HandLink, JoinLink, PickLanguage, parse_start
from handlers.context import KarataContext, chat_translator, effective, is_admin, seat_for

log = logging.getLogger(__name__)

LANGUAGE_NAMES = {"sw": "Kiswahili", "en": "English"}


def help_text(_: Translator) -> str:
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


async def track_user(update: Update, context: KarataContext) -> None:
    """Every update first: remember who sent it (their name changes; their language only by choice)."""
    user = update.effective_user
    if user is None or user.is_bot:
        return
    seen: dict[int, str] = context.bot_data.setdefault("names_seen", {})
    name = seat_for(user).name
    if seen.get(user.id) == name:
        return
    await context.karata.store.remember_user(user.id, name, first_language(user.language_code))
    if len(seen) > 100_000:
        seen.clear()  # a cache, not a record: forgetting costs one write per user
    seen[user.id] = name


async def start(update: Update, context: KarataContext) -> None:
    """/start in the private chat, plain or from a deep link (j<table>_<token>: join, h<table>: my cards)."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type != Chat.PRIVATE:
        await telegram_io.reply(message, help_text(_), html=True)
        return
    karata = context.karata
    tables = await karata.service.mark_reachable(user.id)
    link = parse_start(context.args[0] if context.args else "")
    if isinstance(link, JoinLink):
        await lobby.join_by_link(update, context, link)
        return
    if isinstance(link, HandLink):
        table = await karata.store.get_table(link.table_id)
        if table is None or table.seat_of(user.id) is None or table.status != "playing":
            await telegram_io.reply(message, _("You are not in a game right now."))
        else:
            play.resend_hands(context, user.id, [link.table_id])
        return
    play.resend_hands(context, user.id, tables)
    await telegram_io.reply(message, help_text(_), html=True)


async def help_command(update: Update, context: KarataContext) -> None:
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    await telegram_io.reply(message, help_text(_), html=True)


async def language_command(update: Update, context: KarataContext) -> None:
    """/language: buttons for each catalog; in a group only an admin may change the group's."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    buttons = [InlineKeyboardButton(LANGUAGE_NAMES[code], callback_data=PickLanguage(code).encode()) for code in LANGUAGES]
    prompt = _("Choose your language:") if chat.type == Chat.PRIVATE else _("Choose the group's language (admins):")
    await telegram_io.reply(message, prompt, InlineKeyboardMarkup([buttons]))


async def pick_language(update: Update, context: KarataContext) -> None:
    query = update.callback_query
    assert query is not None
    data = PickLanguage.parse(query.data)
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if data.language not in LANGUAGES:
        await telegram_io.answer(query, _("I did not understand that button."))
        return
    karata = context.karata
    if chat.type == Chat.PRIVATE:
        await karata.store.set_user_language(user.id, data.language)
        tables = await karata.store.live_tables_of_user(user.id)
    elif await is_admin(context, chat.id, user.id):
        await karata.store.set_chat_language(chat.id, data.language)
        tables = [table for table in [await karata.store.live_table(chat.id, 0)] if table is not None]
    else:
        await telegram_io.answer(query, _("Only a group admin can do that."))
        return
    chosen = translator(data.language)
    await telegram_io.answer(query)
    await message.edit_text(chosen(N_("Language: English")))
    for table in tables:
        karata.publisher.refresh(table.table_id)  # its messages now speak the new language


async def unknown_button(update: Update, context: KarataContext) -> None:
    """Callback data we did not make (forged, or from an older version of the bot): a toast."""
    query = update.callback_query
    if query is None or update.effective_user is None or update.effective_chat is None:
        return
    _ = await chat_translator(context, update.effective_chat, update.effective_user)
    await telegram_io.answer(query, _("I did not understand that button."))


async def on_error(update: object, context: KarataContext) -> None:
    """Log the failure (the log filter strips the token) and tell the presser something went wrong."""
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.callback_query is not None and update.effective_chat and update.effective_user:
        try:
            _ = await chat_translator(context, update.effective_chat, update.effective_user)
            await telegram_io.answer(update.callback_query, _("Something went wrong; please try again."))
        except Exception:  # the error handler must never raise
            log.debug("could not answer after an error", exc_info=True)
