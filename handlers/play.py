"""In play: presses in the private hand, buttons on the group table, /hand, /table, /kadi, /rules,
/endsession, typed house rules and poll answers.

Every press is answered as soon as the table service has committed (or refused) it; what the
move changes on screen follows through the publisher.
"""

from __future__ import annotations

import time

from telegram import Chat, Update
from telegram.error import TelegramError

from engine.core.protocol import Action
from handlers import telegram_io
from handlers.callback_data import TableButton, TreeNode
from handlers.context import (
    KarataContext,
    chat_translator,
    effective,
    is_admin,
    table_of_chat,
    thread_of,
    user_translator,
)
from handlers.games import renderer_for
from handlers.refusals import outcome_text, refusal_text
from handlers.render.hand import player_view, seen_by
from tables.models import PLAYING, Loaded, Outcome, TableRow


def press_request(update: Update) -> str | None:
    """The name a press goes by in the action log: a press redelivered after a crash has the
    same one, and is answered as what it did."""
    query = update.callback_query
    return f"cq:{query.id}" if query is not None and query.id else None


async def press_action(update: Update, context: KarataContext) -> None:
    """A button of the action tree: open a branch, or apply the action it stands for."""
    query = update.callback_query
    assert query is not None and query.data is not None
    data = TreeNode.parse(query.data)
    chat, user, _message = effective(update)
    _ = await chat_translator(context, chat, user)
    karata = context.karata
    player = str(user.id)
    opened: list[int] = []

    def choose(loaded: Loaded) -> Action | Outcome:
        table, game, state = loaded.table, loaded.game, loaded.state
        seen = seen_by(table, game, state, player, _)
        if seen.keyboard != data.keyboard:
            return Outcome.refused("stale", table=table)
        node = seen.tree.node(abs(data.node))
        if node is None:
            return Outcome.refused("unknown_button", table=table)
        if data.node >= 0 and (node.children or node.number == 0):
            opened.append(node.number)  # a branch (or back to the top): nothing is played yet
            return Outcome(True, table=table)
        if node.action is None:
            return Outcome.refused("unknown_button", table=table)
        return node.action

    outcome = await karata.service.act_with(data.table_id, player, choose, press_request(update))
    if opened:
        karata.publisher.open_node(data.table_id, user.id, data.keyboard, opened[0])
    else:
        karata.publisher.close_node(data.table_id, user.id)
    if outcome.ok:
        await telegram_io.answer(query)
        return
    await telegram_io.answer(query, outcome_text(outcome, _, _renderer_texts(outcome.table)))
    if outcome.code in ("stale", "unknown_button"):
        karata.publisher.refresh(data.table_id)


def _renderer_texts(table: TableRow | None) -> dict[str, str] | None:
    return renderer_for(table.game).refusal_texts if table is not None else None


async def hand_command(update: Update, context: KarataContext) -> None:
    """/hand: send my cards again (in the private chat), for this group's table or all of mine."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    store = context.karata.store
    if chat.type == Chat.PRIVATE:
        tables = await store.live_tables_of_user(user.id)
    else:
        table = await store.live_table(chat.id, thread_of(message))
        tables = [table] if table and table.seat_of(user.id) else []
    playing = [table.table_id for table in tables if table.status == PLAYING]
    if not playing:
        await telegram_io.reply(message, _("You are not in a game right now."))
        return
    await context.karata.service.mark_reachable(user.id)
    resend_hands(context, user.id, playing)


def resend_hands(context: KarataContext, user_id: int, table_ids: list[int]) -> None:
    """Post the player's hands anew at the bottom of their private chat."""
    for table_id in table_ids:
        context.karata.publisher.repost(table_id, f"hand:{user_id}")


async def table_command(update: Update, context: KarataContext) -> None:
    """/table in a group: post the table message again at the bottom of the chat."""
    found = await table_of_chat(update, context)
    if found is not None:
        context.karata.publisher.repost(found[1].table_id, "table")


CONFIRM_WINDOW_SECONDS = 15
MAX_TYPED = 1000


def _confirmed(context: KarataContext, key: tuple[int, int, str]) -> bool:
    """A costly table button needs a second press within the window; the first one warns."""
    pending: dict[tuple[int, int, str], float] = context.bot_data.setdefault("confirmations", {})
    now = time.monotonic()
    for stale in [key for key, when in pending.items() if now - when > CONFIRM_WINDOW_SECONDS]:
        del pending[stale]
    if key in pending:
        del pending[key]
        return True
    pending[key] = now
    return False


async def press_table_button(update: Update, context: KarataContext) -> None:
    """A button on the group table ("Kadi Moja!", accuse): pressed by whoever it concerns."""
    query = update.callback_query
    assert query is not None and query.data is not None
    data = TableButton.parse(query.data)
    chat, user, _message = effective(update)
    _ = await chat_translator(context, chat, user)
    karata = context.karata
    table = await karata.store.get_table(data.table_id)
    if table is None or table.chat_id != chat.id:
        await telegram_io.answer(query, refusal_text("no_table", None, {}, _))
        return
    renderer = renderer_for(table.game)
    warning = renderer.table_button_warning(data.key, _)
    if warning and table.seat_of(user.id) and not _confirmed(context, (table.table_id, user.id, data.key)):
        await telegram_io.answer(query, warning, alert=True)
        return

    def choose(loaded: Loaded) -> Action | Outcome:
        if data.version != loaded.table.version:
            return Outcome.refused("too_late", table=loaded.table)
        action = renderer.table_action(data.key, player_view(loaded.table, loaded.game, loaded.state, None))
        return action if action is not None else Outcome.refused("unknown_button", table=loaded.table)

    outcome = await karata.service.act_with(table.table_id, str(user.id), choose, press_request(update))
    if outcome.ok:
        await telegram_io.answer(query)
    else:
        await telegram_io.answer(query, outcome_text(outcome, _, renderer.refusal_texts))


async def said_at_table(update: Update, context: KarataContext) -> None:
    """A message in the group that a game may take as a move: a command of the game (/kadi), or a
    reply to the table ("Kadi Moja!"). Anything else is none of our business and gets no answer."""
    chat, user, message = effective(update)
    if chat.type == Chat.PRIVATE or not message.text:
        return
    karata = context.karata
    table = await karata.store.live_table(chat.id, thread_of(message))
    if table is None or table.status != PLAYING or table.seat_of(user.id) is None:
        return
    renderer = renderer_for(table.game)
    text = message.text[:MAX_TYPED]

    def choose(loaded: Loaded) -> Action | Outcome:
        action = renderer.group_text_action(player_view(loaded.table, loaded.game, loaded.state, None), text)
        return action if action is not None else Outcome(True, table=loaded.table, code="ignored")

    outcome = await karata.service.act_with(table.table_id, str(user.id), choose)
    if not outcome.ok:
        _ = await chat_translator(context, chat, user)
        await telegram_io.reply(message, outcome_text(outcome, _, renderer.refusal_texts))


async def private_text(update: Update, context: KarataContext) -> None:
    """Text typed in the private chat: a house rule when one is awaited, else a pointer to the buttons."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    karata = context.karata
    text = (message.text or "")[:MAX_TYPED]
    for table in await karata.store.live_tables_of_user(user.id):
        if table.status != PLAYING:
            continue
        loaded = await karata.service.load(table.table_id)
        if loaded is None or loaded.state is None:
            continue
        renderer = renderer_for(table.game)
        view = player_view(loaded.table, loaded.game, loaded.state, str(user.id))
        action = renderer.text_action(view, text)
        if action is None:
            continue
        outcome = await karata.service.act(table.table_id, str(user.id), loaded.table.version, action)
        if not outcome.ok:
            await telegram_io.reply(message, outcome_text(outcome, _, renderer.refusal_texts))
        return
    await telegram_io.reply(message, _("Use the buttons under your cards to play. /help shows the commands."))


async def rules_command(update: Update, context: KarataContext) -> None:
    """/rules in a group: the table's house rules with their authors."""
    found = await table_of_chat(update, context)
    if found is None:
        return
    _, table = found
    message = effective(update)[2]
    loaded = await context.karata.service.load(table.table_id)
    if loaded is None or loaded.state is None:
        await telegram_io.reply(message, _("There is no table here. Start one with /newgame."))
        return
    renderer = renderer_for(table.game)
    view = player_view(loaded.table, loaded.game, loaded.state, None)
    lines = renderer.rules_lines(view, _, view["names"]) or [_("This game has no house rules.")]
    await telegram_io.reply(message, "\n".join(lines), html=True)


async def end_session_command(update: Update, context: KarataContext) -> None:
    """/endsession in a group: end the table where it stands (its creator or an admin)."""
    found = await table_of_chat(update, context)
    if found is None:
        return
    _, table = found
    chat, user, message = effective(update)
    service = context.karata.service
    admin = user.id != table.creator_id and await is_admin(context, chat.id, user.id)
    if table.status == "lobby":
        outcome = await service.cancel(table.table_id, user.id, admin)
    else:
        outcome = await service.end_session(table.table_id, user.id, admin)
    if not outcome.ok:
        await telegram_io.reply(message, outcome_text(outcome, _))


async def poll_answer(update: Update, context: KarataContext) -> None:
    """An answer to a game's poll (a Rule Vote): the voter's action at the table. Telegram sends
    a retracted answer as an answer with no option: the renderer turns it into its own action."""
    answer = update.poll_answer
    if answer is None or answer.user is None:
        return
    karata = context.karata
    row = await karata.store.poll(answer.poll_id)
    if row is None or not row["open"]:
        return
    loaded = await karata.service.load(row["table_id"])
    if loaded is None or loaded.state is None or loaded.table.status != PLAYING:
        return
    renderer = renderer_for(loaded.table.game)
    view = player_view(loaded.table, loaded.game, loaded.state, None)
    action = renderer.poll_action(row["key"], list(answer.option_ids), view)
    if action is None:
        return
    outcome = await karata.service.act_now(loaded.table.table_id, str(answer.user.id), action)
    # A retracted answer that counted for nothing (a stranger's, one already closed) needs no word.
    if not outcome.ok and answer.option_ids:
        # A poll answer cannot be answered with a toast; tell the voter privately if we can.
        _ = await user_translator(context, answer.user.id)
        try:
            await context.bot.send_message(answer.user.id, outcome_text(outcome, _, renderer.refusal_texts))
        except TelegramError:
            pass
