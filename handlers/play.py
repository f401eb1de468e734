"""In play: button presses in the private hand message, /hand and /table."""

from __future__ import annotations

import re
import time

from telegram import Chat, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from handlers import telegram_io
from handlers.callback_data import TableButton, TreeNode
from handlers.context import (
    chat_translator,
    effective,
    running_table_press,
    services,
    table_of_chat,
    thread_of,
)
from handlers.games import renderer_for
from handlers.refusals import outcome_text, refusal_text


async def press_action(update: Update, context: ContextTypes.DEFAULT_TYPE, data: TreeNode) -> None:
    """A button of the action tree: open a branch, or apply the action it stands for."""
    press = await running_table_press(update, context, data.table_id)
    if press is None:
        return
    query, user, _, found = press.query, press.user, press._, press.found
    table, game, state = press.loaded.table, press.loaded.game, press.loaded.state
    player = str(user.id)
    # Answers come last, so that when a player sees the toast the screen is already current.
    if data.version != table.version:
        await found.publisher.send_hand(table, game, state, user.id)
        await telegram_io.answer(query, refusal_text("stale", None, {}, _))
        return
    tree = found.publisher.player_tree(renderer_for(table.game), game, state, player, _, table)
    node = tree.node(abs(data.node))
    if node is None or node.number == 0:
        await found.publisher.send_hand(table, game, state, user.id)
        await telegram_io.answer(query, refusal_text("unknown_button", None, {}, _))
        return
    if data.node > 0 and node.children:
        await found.publisher.send_hand(table, game, state, user.id, node_number=node.number)
        await telegram_io.answer(query)
        return
    if node.action is None:
        await telegram_io.answer(query, refusal_text("unknown_button", None, {}, _))
        return
    outcome = await found.service.act(table.table_id, player, data.version, node.action)
    if outcome.ok:
        await telegram_io.answer(query)
        return
    await telegram_io.answer(query, outcome_text(outcome, _, renderer_for(table.game).refusal_texts))


async def hand_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/hand: send my cards again (in the private chat), for this group's table or all of mine."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    found = services(context)
    if chat.type == Chat.PRIVATE:
        tables = await found.store.live_tables_of_user(user.id)
    else:
        table = await found.store.live_table(chat.id, thread_of(message))
        tables = [table] if table and table.seat_of(user.id) else []
    playing = [table for table in tables if table.status == "playing"]
    if not playing:
        await message.reply_text(_("You are not in a game right now."))
        return
    await resend_hands(context, user.id, [table.table_id for table in playing])


async def resend_hands(context: ContextTypes.DEFAULT_TYPE, user_id: int, table_ids: list[int]) -> None:
    found = services(context)
    for table_id in table_ids:
        loaded = await found.service.load(table_id)
        if loaded is None or loaded.state is None:
            continue
        found.publisher.dm_restored(table_id, user_id)
        await found.publisher.send_hand(loaded.table, loaded.game, loaded.state, user_id, fresh=True)


async def table_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/table in a group: post the table message again at the bottom of the chat."""
    found_table = await table_of_chat(update, context)
    if found_table is None:
        return
    _, table = found_table
    found = services(context)
    async with found.service.lock(table.table_id):
        loaded = await found.service.load(table.table_id)
        if loaded is None:
            return
        if loaded.state is None:
            loaded.table.table_message_id = None
            await found.publisher.lobby_changed(loaded.table)
        else:
            await found.publisher.post_table(loaded.table, loaded.game, loaded.state, new_message=True)


CONFIRM_WINDOW_SECONDS = 15
KADI_CALL = re.compile(r"^\s*(kadi\s+moja|niko\s+kadi)\s*!*\s*$", re.IGNORECASE)


async def press_table_button(update: Update, context: ContextTypes.DEFAULT_TYPE, data: TableButton) -> None:
    """A button on the group table ("Kadi Moja!", accuse): pressed by whoever it concerns."""
    press = await running_table_press(update, context, data.table_id)
    if press is None:
        return
    query, user, _, found = press.query, press.user, press._, press.found
    table, game, state = press.loaded.table, press.loaded.game, press.loaded.state
    if data.version != table.version:
        await telegram_io.answer(query, refusal_text("too_late", None, {}, _))
        return
    renderer = renderer_for(table.game)
    action = renderer.table_action(data.key, found.publisher.player_view(table, game, state, None))
    if action is None:
        await telegram_io.answer(query, refusal_text("unknown_button", None, {}, _))
        return
    warning = renderer.table_button_warning(data.key, _)
    if warning:
        pending: dict = context.bot_data.setdefault("confirmations", {})
        key = (table.table_id, user.id, data.key)
        if time.monotonic() - pending.get(key, -1e9) > CONFIRM_WINDOW_SECONDS:
            pending[key] = time.monotonic()
            await telegram_io.answer(query, warning, alert=True)
            return
        pending.pop(key, None)
    outcome = await found.service.act(table.table_id, str(user.id), data.version, action)
    if outcome.ok:
        await telegram_io.answer(query)
    else:
        await telegram_io.answer(query, outcome_text(outcome, _, renderer.refusal_texts))


async def call_at_table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The "Kadi Moja!" call typed in the group: /kadi, or a reply "Kadi Moja" / "Niko Kadi"."""
    chat, user, message = effective(update)
    if chat.type == Chat.PRIVATE:
        return
    if message.text and not message.text.startswith("/") and not KADI_CALL.match(message.text):
        return
    found = services(context)
    table = await found.store.live_table(chat.id, thread_of(message))
    if table is None or table.game != "kadi" or table.status != "playing" or table.seat_of(user.id) is None:
        return
    _ = await chat_translator(context, chat, user)
    outcome = await found.service.act_now(table.table_id, str(user.id), {"type": "call"})
    if not outcome.ok:
        await message.reply_text(outcome_text(outcome, _, renderer_for("kadi").refusal_texts))


MAX_TYPED = 1000


async def private_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Text typed in the private chat: a house rule when one is awaited, else a pointer to the buttons."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    found = services(context)
    text = (message.text or "")[:MAX_TYPED]
    for table in await found.store.live_tables_of_user(user.id):
        if table.status != "playing":
            continue
        loaded = await found.service.load(table.table_id)
        if loaded is None or loaded.state is None:
            continue
        renderer = renderer_for(table.game)
        view = found.publisher.player_view(loaded.table, loaded.game, loaded.state, str(user.id))
        action = renderer.text_action(view, text)
        if action is None:
            continue
        outcome = await found.service.act(table.table_id, str(user.id), loaded.table.version, action)
        if not outcome.ok:
            await message.reply_text(outcome_text(outcome, _, renderer.refusal_texts))
        return
    await message.reply_text(_("Use the buttons under your cards to play. /help shows the commands."))


async def rules_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rules in a group: the table's house rules with their authors."""
    found_table = await table_of_chat(update, context)
    if found_table is None:
        return
    _, table = found_table
    found = services(context)
    message = effective(update)[2]
    loaded = await found.service.load(table.table_id)
    if loaded is None or loaded.state is None:
        await message.reply_text(_("There is no table here. Start one with /newgame."))
        return
    renderer = renderer_for(table.game)
    view = found.publisher.player_view(loaded.table, loaded.game, loaded.state, None)
    lines = renderer.rules_lines(view, _, view["names"]) or [_("This game has no house rules.")]
    await message.reply_text("\n".join(lines), parse_mode="HTML")


async def end_session_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/endsession in a group: end the table where it stands (its creator or an admin)."""
    from handlers.context import is_admin

    found_table = await table_of_chat(update, context)
    if found_table is None:
        return
    _, table = found_table
    chat, user, message = effective(update)
    found = services(context)
    if table.status == "lobby":
        outcome = await found.service.cancel(table.table_id, user.id, await is_admin(context, chat.id, user.id))
    else:
        outcome = await found.service.end_session(table.table_id, user.id, await is_admin(context, chat.id, user.id))
    if not outcome.ok:
        await message.reply_text(outcome_text(outcome, _))


async def poll_answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An answer to a game's poll (a Rule Vote): the voter's action at the table."""
    answer = update.poll_answer
    if answer is None or answer.user is None:
        return
    found = services(context)
    row = await found.store.poll(answer.poll_id)
    if row is None or not row["open"]:
        return
    loaded = await found.service.load(row["table_id"])
    if loaded is None or loaded.state is None or loaded.table.status != "playing":
        return
    renderer = renderer_for(loaded.table.game)
    view = found.publisher.player_view(loaded.table, loaded.game, loaded.state, None)
    action = renderer.poll_action(row["key"], list(answer.option_ids), view)
    if action is None:
        return
    outcome = await found.service.act_now(loaded.table.table_id, str(answer.user.id), action)
    if not outcome.ok:
        # A poll answer cannot be answered with a toast; tell the voter privately if we can.
        _ = await chat_translator(context, Chat(answer.user.id, Chat.PRIVATE), answer.user)
        text = outcome_text(outcome, _, renderer.refusal_texts)
        try:
            await context.bot.send_message(answer.user.id, text)
        except TelegramError:
            pass
