"""Opening a table (/newgame and its game picker), joining by deep link, leaving, starting, cancelling."""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update

from engine.registry import available_games, get_game
from handlers.chat import languages, telegram_io
from handlers.chat.context import (
    KarataContext,
    chat_translator,
    effective,
    is_admin,
    is_member,
    pressed,
    seat_for,
    table_of_chat,
    thread_of,
)
from handlers.presentation.callback_data import JoinLink, LobbyOp, PickGame, PlayAgain
from handlers.presentation.games import renderer_for
from handlers.presentation.refusals import outcome_text, refusal_text
from handlers.presentation.render.common import game_title, rows
from handlers.presentation.render.options import refused_word, shown
from handlers.presentation.render.seat import player_view
from tables.models import COMPUTER_LEVELS

MAX_ARGUMENT = 64
MAX_COMPUTERS = 6


@dataclass(frozen=True)
class Computers:
    """What /newgame says of computer players: `bots=N level=easy|strong standin=true`."""

    count: int | None = None
    level: str = "strong"
    stand_in: bool = False


def practice_computers(game: str) -> int:
    """A practice table in the private chat: the player against computers, at the game's usual table."""
    return get_game(game).usual_players - 1


def computer_options(options: dict[str, object]) -> tuple[Computers, str | None]:
    """Take the computer players' words out of `options`; returns them and the first bad word."""
    count, level, stand_in = options.pop("bots", None), options.pop("level", "strong"), options.pop("standin", False)
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COMPUTERS):
        return Computers(), f"bots={count}"
    if level not in COMPUTER_LEVELS:
        return Computers(), f"level={level}"
    if not isinstance(stand_in, bool):
        return Computers(), f"standin={stand_in}"
    return Computers(count, str(level), stand_in), None


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
        except (json.JSONDecodeError, RecursionError):
            value = raw
        if key == "timer":
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3600:
                return options, timer, word
            timer = value
        else:
            options[key] = value
    return options, timer, None


async def new_game(update: Update, context: KarataContext) -> None:
    """/newgame [GAME] [option=value ...]: a table in a group, or practice in the private chat."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    args = list(context.args or [])
    games = available_games()
    if not args:
        buttons = [InlineKeyboardButton(game_title(game, _), callback_data=PickGame(game).encode()) for game in games]
        await telegram_io.reply(message, _("Which game?"), InlineKeyboardMarkup(rows(buttons, 2)))
        return
    game = args[0].lower()
    if game not in games:
        # The games by name (a player picks one with the buttons: the ids are not words to show).
        text = _("I do not know the game {game}. Which game?", game=escape(args[0][:MAX_ARGUMENT]))
        buttons = [InlineKeyboardButton(game_title(game, _), callback_data=PickGame(game).encode()) for game in games]
        await telegram_io.reply(message, text, InlineKeyboardMarkup(rows(buttons, 2)), html=True)
        return
    options, timer, bad = parse_option_args(args[1:])
    computers, bad_computers = computer_options(options)
    if bad is not None or bad_computers is not None:
        word = str(bad if bad is not None else bad_computers)
        if "=" in word:
            text = refused_word(game, word, options, _)
        else:
            text = _(
                "I did not understand {word}. Write options as name=value, for example timer=60.", word=escape(word)
            )
        await telegram_io.reply(message, text, html=True)
        return
    private = chat.type == Chat.PRIVATE
    count = computers.count if computers.count is not None else (practice_computers(game) if private else 0)
    outcome = await context.karata.service.lobby.open_lobby(
        chat.id, thread_of(message), game, seat_for(user), options, timer,
        computers=count, level=computers.level, stand_in=computers.stand_in, start=private,
    )  # fmt: skip
    if outcome.ok and not private:
        await languages.adopt_group_language(context, chat.id, user.id)
    elif not outcome.ok and outcome.code == "bad_option" and outcome.values.get("option"):
        option = str(outcome.values["option"])
        word = f"{option}={shown(options[option])}" if option in options else option
        await telegram_io.reply(message, refused_word(game, word, options, _), html=True)
    elif not outcome.ok:
        values = {key: escape(str(value)) for key, value in outcome.values.items()}
        text = refusal_text(outcome.code, escape(outcome.message or ""), values, _)
        await telegram_io.reply(message, text, html=True)


async def pick_game(update: Update, context: KarataContext) -> None:
    query, data, chat, user, message, _ = await pressed(update, context, PickGame.parse)
    if data.game not in available_games():
        await telegram_io.answer(query, refusal_text("unknown_game", None, {"game": data.game}, _))
        return
    # In the private chat the picker opens a practice table against computer players.
    private = chat.type == Chat.PRIVATE
    count = practice_computers(data.game) if private else 0
    outcome = await context.karata.service.lobby.open_lobby(
        chat.id, thread_of(message), data.game, seat_for(user), {}, None, computers=count, start=private
    )
    if not outcome.ok:
        await telegram_io.answer(query, outcome_text(outcome, _), alert=True)
        return
    await telegram_io.answer(query)
    if not private:
        await languages.adopt_group_language(context, chat.id, user.id)
    try:
        await message.delete()
    except Exception:  # the picker stays; nothing is lost
        pass


async def join_by_link(update: Update, context: KarataContext, link: JoinLink) -> None:
    """`/start j<table>_<token>` in the private chat: the Join button's deep link."""
    chat, user, message = effective(update)
    karata = context.karata
    table = await karata.store.get_table(link.table_id)
    _ = await chat_translator(context, chat, user)
    if table is None or table.join_token != link.token:
        await telegram_io.reply(message, refusal_text("no_table", None, {}, _))
        return
    if not await is_member(context, table.chat_id, user.id):
        await telegram_io.reply(message, refusal_text("not_member", None, {}, _))
        return
    # A player who has not chosen a language reads their cards in the group's.
    await languages.adopt_group_language(context, table.chat_id, user.id)
    _ = await chat_translator(context, chat, user)
    outcome = await karata.service.lobby.join(link.table_id, seat_for(user), link.token)
    if outcome.ok or outcome.code == "already_joined":
        text = _(
            "You joined the {game} table. Your cards will arrive here when the game starts.",
            game=game_title(table.game, _),
        )
        await telegram_io.reply(message, text)
        return
    await telegram_io.reply(message, outcome_text(outcome, _))


async def lobby_op(update: Update, context: KarataContext) -> None:
    query, data, chat, user, _message, _ = await pressed(update, context, LobbyOp.parse)
    lobby = context.karata.service.lobby
    table = await context.karata.store.get_table(data.table_id)
    if table is None or table.chat_id != chat.id:
        await telegram_io.answer(query, refusal_text("no_table", None, {}, _))
        return
    if data.op == "leave":
        outcome = await lobby.leave(data.table_id, user.id)
    elif data.op == "start":
        outcome = await lobby.start(data.table_id, user.id)
        if outcome.ok:
            await offer_carry_over(context, data.table_id)
    elif data.op in ("agree", "refuse"):
        outcome = await lobby.consent(data.table_id, user.id, data.op == "agree")
    elif data.op == "add_bot":
        outcome = await lobby.add_computer(data.table_id, user.id)
    elif data.op == "drop_bot":
        outcome = await lobby.remove_computer(data.table_id, user.id)
    else:
        admin = user.id != table.creator_id and await is_admin(context, chat.id, user.id)
        outcome = await lobby.cancel(data.table_id, user.id, admin)
    if outcome.ok:
        await telegram_io.answer(query)
    else:
        await telegram_io.answer(query, outcome_text(outcome, _))


async def play_again(update: Update, context: KarataContext) -> None:
    query, data, chat, user, _message, _ = await pressed(update, context, PlayAgain.parse)
    outcome = await context.karata.service.lobby.play_again(data.table_id, chat.id, seat_for(user))
    if outcome.ok:
        await telegram_io.answer(query)
        if chat.type != Chat.PRIVATE:
            await languages.adopt_group_language(context, chat.id, user.id)
    else:
        await telegram_io.answer(query, outcome_text(outcome, _))


async def cancel_command(update: Update, context: KarataContext) -> None:
    """/cancel in a group: close this chat's table (its creator or an admin)."""
    found = await table_of_chat(update, context)
    if found is None:
        return
    _, table = found
    chat, user, message = effective(update)
    admin = user.id != table.creator_id and await is_admin(context, chat.id, user.id)
    outcome = await context.karata.service.lobby.cancel(table.table_id, user.id, admin)
    if not outcome.ok:
        await telegram_io.reply(message, outcome_text(outcome, _))


async def offer_carry_over(context: KarataContext, table_id: int) -> None:
    """At a new session's start, the opener proposes what the last session leaves behind (Lopti:
    restoring its rules, decided by a vote that does not use round 1's)."""
    karata = context.karata
    loaded = await karata.service.load(table_id)
    if loaded is None or loaded.state is None or loaded.table.status != "playing":
        return
    table = loaded.table
    previous = await karata.store.previous_session(table.chat_id, table.thread_id, table.game, table.table_id)
    if previous is None:
        return
    earlier = await karata.service.load(previous.table_id)
    if earlier is None or earlier.state is None:
        return
    view = player_view(earlier.table, earlier.game, earlier.state, None)
    seated = {player: player for player in table.players}
    action = renderer_for(table.game).carry_over(view, seated)
    if action is not None:
        await karata.service.play.act_now(table_id, str(table.creator_id), action)
