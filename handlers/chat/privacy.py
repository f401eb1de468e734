"""/forget: a person asks the bot to forget their name and records (tables/privacy.py does it).

Only in the private chat, and only after a confirmation button: the answer cannot be undone.
"""

from __future__ import annotations

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update

from handlers.chat import telegram_io
from handlers.chat.context import KarataContext, chat_translator, effective, pressed
from handlers.i18n import Translator
from handlers.presentation.callback_data import ForgetMe


def forget_markup(_: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(_("Forget me"), callback_data=ForgetMe(True).encode()),
          InlineKeyboardButton(_("Keep my records"), callback_data=ForgetMe(False).encode())]]
    )  # fmt: skip


async def forget_command(update: Update, context: KarataContext) -> None:
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type != Chat.PRIVATE:
        await telegram_io.reply(message, _("Send /forget in our private chat."))
        return
    if await context.karata.store.live_tables_of_user(user.id):
        await telegram_io.reply(
            message, _("You are at a table now. Finish or leave your game, then send /forget again.")
        )
        return
    text = _(
        "Forget you? Your name, your records, your ratings and your language choice are deleted. "
        "Past matches keep your seat without a name, so that the other players' records stay. "
        "This cannot be undone."
    )
    await telegram_io.reply(message, text, forget_markup(_))


async def press_forget(update: Update, context: KarataContext) -> None:
    query, data, chat, user, message, _ = await pressed(update, context, ForgetMe.parse)
    if chat.type != Chat.PRIVATE:
        await telegram_io.answer(query, _("I did not understand that button."))
        return
    if not data.confirmed:
        await telegram_io.answer(query)
        await message.edit_text(_("Nothing was deleted."))
        return
    karata = context.karata
    if await karata.store.live_tables_of_user(user.id):
        await telegram_io.answer(query, _("You are at a table now. Finish or leave your game, then send /forget again."),
                                 alert=True)  # fmt: skip
        return
    await karata.store.forget_person(user.id)
    # Seen again from the next update on: the name is written afresh only if they come back.
    karata.names_seen.pop(user.id, None)
    await telegram_io.answer(query)
    await message.edit_text(
        _(
            "Done: I forgot your name and records. Past matches show an anonymous seat. If you play again, "
            "I start a new record."
        )
    )
