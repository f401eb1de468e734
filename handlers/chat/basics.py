"""/start (with its deep links), /help, /language, users seen, unknown buttons and the error handler."""

from __future__ import annotations

import logging
from html import escape

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.helpers import create_deep_linked_url

from handlers.chat import arena_nights, howto, languages, lobby, play, profile, telegram_io
from handlers.chat.context import KarataContext, chat_translator, effective, is_admin, pressed, seat_for
from handlers.context import KARATA
from handlers.i18n import LANGUAGES, N_, Translator, first_language, translator
from handlers.presentation.callback_data import ArenaLink, HandLink, HowToLink, JoinLink, PickLanguage, parse_start

log = logging.getLogger(__name__)

LANGUAGE_NAMES = {"sw": "Kiswahili", "en": "English"}
# The payload of the "add me to a group" link (Telegram sends `/start karata` in the group).
ADDED_PAYLOAD = "karata"


def welcome_text(_: Translator) -> str:
    """/start in the private chat: what Karata is, how to begin, where to learn the games."""
    return "\n\n".join(
        [
            "<b>🃏 " + escape(profile.bot_name(_)) + "</b>",
            _("Welcome! I host card games in Telegram groups: {games}.", games=profile.games_named(_)),
            _(
                "To play, add me to a group and send /newgame there; friends press Join. Your cards arrive "
                "here, in our private chat."
            ),
            _("New to a game? Press it below to learn how to play. /help lists the commands."),
        ]
    )


def welcome_markup(_: Translator, bot_username: str) -> InlineKeyboardMarkup:
    # Telegram's startgroup link needs a value: it comes back as `/start karata` in the group.
    add = InlineKeyboardButton(
        "➕ " + _("Add me to a group"), url=create_deep_linked_url(bot_username, ADDED_PAYLOAD, group=True)
    )
    return InlineKeyboardMarkup([[add], *howto.game_buttons(_)])


def help_text(_: Translator, private: bool) -> str:
    """Every command that works in this kind of chat, and where to learn the games."""
    heading = "<b>🃏 " + escape(profile.bot_name(_)) + "</b>"
    lines = [heading, _("I host card games in Telegram groups: {games}.", games=profile.games_named(_)), ""]
    lines.append(_("Commands in this chat:") if private else _("Commands in this group:"))
    lines.extend(f"/{command.name} — {_(command.description)}" for command in profile.commands_of(private))
    lines.append("")
    if private:
        lines.append(
            _(
                "In a group: /newgame opens a table and /arena an arena; /table, /kadi, /rules, /endsession, "
                "/cancel, /top, /season and /history work there."
            )
        )
    lines.append(
        _("How to play: press a game below, or send /help and its name (/help kadi).")
        if private
        else _(
            "How to play: press a game below and I will tell you in our private chat, or send /help and its "
            "name (/help kadi)."
        )
    )
    return "\n".join(lines)


def help_markup(_: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(howto.game_buttons(_))


async def track_user(update: Update, context: KarataContext) -> None:
    """Every update first: remember who sent it (their name changes; their language only by choice)."""
    telegram_io.note_arrival()  # a press's answer window starts now
    user = update.effective_user
    if user is None or user.is_bot:
        return
    seen = context.karata.names_seen
    name = seat_for(user).name
    if seen.get(user.id) == name:
        return
    await context.karata.store.remember_user(user.id, name, first_language(user.language_code))
    if len(seen) > 100_000:
        seen.clear()  # a cache, not a record: forgetting costs one write per user
    seen[user.id] = name


async def start(update: Update, context: KarataContext) -> None:
    """/start in the private chat, plain (a welcome) or from a deep link (j<table>_<token>: join,
    h<table>: my cards, how-<language>-<game> / guide-<language>-<game>: how to play it); in a
    group, the group's help."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    if chat.type != Chat.PRIVATE:
        await telegram_io.reply(message, help_text(_, private=False), help_markup(_), html=True)
        return
    karata = context.karata
    tables = await karata.keeper.user_back(user.id)
    link = parse_start(context.args[0] if context.args else "")
    if isinstance(link, JoinLink):
        await lobby.join_by_link(update, context, link)
        return
    if isinstance(link, ArenaLink):
        await arena_nights.join_by_link(update, context, link)
        return
    if isinstance(link, HandLink):
        table = await karata.store.get_table(link.table_id)
        if table is None or table.seat_of(user.id) is None or table.status != "playing":
            await telegram_io.reply(message, _("You are not in a game right now."))
        else:
            play.resend_hands(context, user.id, [link.table_id])
        return
    if isinstance(link, HowToLink) and howto.game_named(link.game):
        # In the language of the group it was asked from, as the button there would have answered.
        await howto.show(context, chat.id, link.game, link.full, translator(link.language))
        return
    play.resend_hands(context, user.id, tables)
    await telegram_io.reply(message, welcome_text(_), welcome_markup(_, context.bot.username), html=True)


async def help_command(update: Update, context: KarataContext) -> None:
    """/help: the commands of this chat and the games; /help GAME: how to play it, here."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    game = howto.game_named(context.args[0]) if context.args else None
    if game is not None:
        await howto.reply_summary(message, game, _)
        return
    private = chat.type == Chat.PRIVATE
    await telegram_io.reply(message, help_text(_, private), help_markup(_), html=True)


async def language_command(update: Update, context: KarataContext) -> None:
    """/language: buttons for each catalog; in a group only an admin may change the group's."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    buttons = [
        InlineKeyboardButton(LANGUAGE_NAMES[code], callback_data=PickLanguage(code).encode()) for code in LANGUAGES
    ]
    prompt = _("Choose your language:") if chat.type == Chat.PRIVATE else _("Choose the group's language (admins):")
    await telegram_io.reply(message, prompt, InlineKeyboardMarkup([buttons]))


async def pick_language(update: Update, context: KarataContext) -> None:
    query, data, chat, user, message, _ = await pressed(update, context, PickLanguage.parse)
    if data.language not in LANGUAGES:
        await telegram_io.answer(query, _("I did not understand that button."))
        return
    karata = context.karata
    if chat.type == Chat.PRIVATE:
        await languages.choose_own_language(context, user.id, data.language)
        tables = await karata.store.live_tables_of_user(user.id)
    elif await is_admin(context, chat.id, user.id):
        await languages.choose_group_language(context, chat.id, data.language)
        tables = [table for table in [await karata.store.live_table(chat.id, 0)] if table is not None]
    else:
        await telegram_io.answer(query, _("Only a group admin can do that."))
        return
    for table in tables:
        karata.publisher.refresh(table.table_id)  # its messages now speak the new language
    chosen = translator(data.language)
    await telegram_io.answer(query)
    await message.edit_text(chosen(N_("Language: English")))


async def unknown_button(update: Update, context: KarataContext) -> None:
    """Callback data we did not make (forged, or from an older version of the bot): a toast."""
    query = update.callback_query
    if query is None or update.effective_user is None or update.effective_chat is None:
        return
    _ = await chat_translator(context, update.effective_chat, update.effective_user)
    await telegram_io.answer(query, _("I did not understand that button."))


async def on_error(update: object, context: KarataContext) -> None:
    """Log the failure (the log filter strips the token) and answer the press: "went wrong" only
    when nothing it asked for was stored, so that nobody presses again for a move that stands."""
    log.error("error while handling an update", exc_info=context.error)
    if KARATA in context.bot_data:
        context.karata.metrics.error()
    if (
        isinstance(update, Update)
        and update.callback_query is not None
        and update.effective_chat
        and update.effective_user
    ):
        try:
            text = None
            if not await _may_have_stood(update, context):
                _ = await chat_translator(context, update.effective_chat, update.effective_user)
                text = _("Something went wrong; please try again.")
            await telegram_io.answer(update.callback_query, text)
        except Exception:  # the error handler must never raise
            log.debug("could not answer after an error", exc_info=True)


async def _may_have_stood(update: Update, context: KarataContext) -> bool:
    """Whether what the press asked for may have been done: its move is in the action log, or a
    call to Telegram failed (answers never raise: another call did, after the press was handled;
    the chat shows what stands)."""
    if isinstance(context.error, TelegramError):
        return True
    request = telegram_io.press_request(update)
    try:
        return request is not None and await context.karata.store.request_applied(request)
    except Exception:  # the database cannot even be read: the move was not stored either
        return False
