"""In play: presses in the private hand, buttons on the group table, /hand, /table, /kadi, /rules,
/endsession, /leave (and the hand's Leave button), typed house rules and poll answers.

Every press is answered as soon as the table service has committed (or refused) it; what the
move changes on screen follows through the publisher.
"""

from __future__ import annotations

import time
from html import escape

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError

from engine.core.protocol import Action
from handlers.chat import telegram_io
from handlers.chat.context import (
    KarataContext,
    chat_translator,
    effective,
    is_admin,
    pressed,
    table_of_chat,
    thread_of,
    user_translator,
)
from handlers.chat.telegram_io import press_request
from handlers.i18n import Translator
from handlers.presentation.callback_data import LeaveTable, TableButton, TreeNode
from handlers.presentation.games import renderer_for
from handlers.presentation.games.base import PROPOSALS_KEY
from handlers.presentation.refusals import outcome_text, refusal_text
from handlers.presentation.render.common import game_title
from handlers.presentation.render.seat import player_view, seen_by
from tables.models import PLAYING, Loaded, Outcome, TableRow


async def press_action(update: Update, context: KarataContext) -> None:
    """A button of the action tree: open a branch, or apply the action it stands for."""
    query, data, chat, user, _message, _ = await pressed(update, context, TreeNode.parse)
    outcome = await context.karata.moves.press(data.table_id, user.id, data, _, request=press_request(update))
    await telegram_io.answer(query, None if outcome.ok else outcome_text(outcome, _, _renderer_texts(outcome.table)))


def _renderer_texts(table: TableRow | None) -> dict[str, str] | None:
    return renderer_for(table.game).refusal_texts if table is not None else None


async def _my_live_tables(context: KarataContext, chat: Chat, user_id: int, message: Message) -> list[TableRow]:
    """In the private chat, every live table of mine; in a group, its table if I sit at it."""
    store = context.karata.store
    if chat.type == Chat.PRIVATE:
        return await store.live_tables_of_user(user_id)
    found = await store.live_table(chat.id, thread_of(message))
    return [found] if found is not None and found.seat_of(user_id) else []


async def hand_command(update: Update, context: KarataContext) -> None:
    """/hand: send my cards again (in the private chat), for this group's table or all of mine."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    tables = await _my_live_tables(context, chat, user.id, message)
    playing = [table.table_id for table in tables if table.status == PLAYING]
    if not playing:
        await telegram_io.reply(message, _("You are not in a game right now."))
        return
    await context.karata.keeper.user_back(user.id)
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
    pending = context.karata.confirmations
    now = time.monotonic()
    for stale in [key for key, when in pending.items() if now - when > CONFIRM_WINDOW_SECONDS]:
        del pending[stale]
    if key in pending:
        del pending[key]
        return True
    pending[key] = now
    return False


async def press_table_button(update: Update, context: KarataContext) -> None:
    """A button on the group table ("Kadi Moja!", accuse, vote): pressed by whoever it concerns."""
    query, data, chat, user, _message, _ = await pressed(update, context, TableButton.parse)
    karata = context.karata
    table = await karata.store.get_table(data.table_id)
    if table is None or table.chat_id != chat.id:
        await telegram_io.answer(query, refusal_text("no_table", None, {}, _))
        return
    renderer = renderer_for(table.game)
    if data.key == PROPOSALS_KEY:
        refusal = await open_proposals(context, table, user.id)
        text = (
            outcome_text(refusal, _, renderer.refusal_texts)
            if refusal
            else _("Choose your proposal in our private chat.")
        )
        await telegram_io.answer(query, text)
        return
    warning = renderer.table_button_warning(data.key, _)
    if warning and table.seat_of(user.id) and not _confirmed(context, (table.table_id, user.id, data.key)):
        await telegram_io.answer(query, warning, alert=True)
        return

    outcome = await karata.moves.table_button(table.table_id, user.id, data.key, data.version, _, press_request(update))
    if outcome.ok:
        await telegram_io.answer(query)
    else:
        await telegram_io.answer(query, outcome_text(outcome, _, renderer.refusal_texts))


async def vote_command(update: Update, context: KarataContext) -> None:
    """/vote in a group: the sender's proposals open in their private chat. The group hears of it
    only when the sender must be told why not (it has about 20 messages a minute)."""
    found = await table_of_chat(update, context)
    if found is None:
        return
    _, table = found
    chat, user, message = effective(update)
    renderer = renderer_for(table.game)
    refusal = await open_proposals(context, table, user.id)
    if refusal is not None:
        await telegram_io.reply(message, outcome_text(refusal, _, renderer.refusal_texts))


async def open_proposals(context: KarataContext, table: TableRow, user_id: int) -> Outcome | None:
    """Post the player's hand anew at the bottom of their private chat, opened on the branch of
    their proposals (a new message notifies, an edit would not); or the refusal saying why not."""
    karata = context.karata
    renderer = renderer_for(table.game)
    if not renderer.rule_vote:
        return Outcome.refused("no_rule_vote", table=table)
    if table.status != PLAYING:
        return Outcome.refused("no_vote_now" if table.status == "lobby" else "not_playing", table=table)
    loaded = await karata.service.load(table.table_id)
    if loaded is None or loaded.state is None:
        return Outcome.refused("no_table")
    player = str(user_id)
    if loaded.table.seat_of(user_id) is None:
        return Outcome.refused("not_in_session", table=loaded.table)
    view = player_view(loaded.table, loaded.game, loaded.state, player)
    refusal = renderer.proposal_refusal(view, player)
    if refusal is None and karata.service.paused(loaded.table):
        refusal = "round_pause"
    if refusal is not None:
        return Outcome.refused(refusal, table=loaded.table)
    # The hand speaks the reader's language as the publisher renders it; the branch is found by its label.
    _ = (await karata.publisher.readers(table.chat_id, [user_id])).of(user_id)
    seen = seen_by(loaded.table, loaded.game, loaded.state, player, _)
    branch = renderer.proposal_branch(_)
    node = next((child for label, child in seen.tree.root.links if label == branch), None)
    if node is None:  # nothing to propose (cannot happen while proposals are open; be safe)
        return Outcome.refused("no_vote_now", table=loaded.table)
    karata.moves.branches.open(table.table_id, user_id, seen.keyboard, node.number)
    karata.publisher.repost(table.table_id, f"hand:{user_id}")
    return None


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

    outcome = await karata.service.play.act_with(table.table_id, str(user.id), choose)
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
        outcome = await karata.service.play.act(table.table_id, str(user.id), loaded.table.version, action)
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
    lobby = context.karata.service.lobby
    admin = user.id != table.creator_id and await is_admin(context, chat.id, user.id)
    if table.status == "lobby":
        outcome = await lobby.cancel(table.table_id, user.id, admin)
    else:
        outcome = await lobby.end_session(table.table_id, user.id, admin)
    if not outcome.ok:
        await telegram_io.reply(message, outcome_text(outcome, _))


async def poll_answer(update: Update, context: KarataContext) -> None:
    """An answer to a game's poll (a Rule Vote): the voter's action at the table. Telegram sends
    a retracted answer as an answer with no option: the renderer turns it into its own action."""
    answer = update.poll_answer
    if answer is None or answer.user is None:
        return
    karata = context.karata
    row = await karata.store.stored_poll(answer.poll_id)
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
    outcome = await karata.service.play.act_now(loaded.table.table_id, str(answer.user.id), action)
    # A retracted answer that counted for nothing (a stranger's, one already closed) needs no word.
    if not outcome.ok and answer.option_ids:
        # A poll answer cannot be answered with a toast; tell the voter privately if we can.
        _ = await user_translator(context, answer.user.id)
        try:
            await context.bot.send_message(answer.user.id, outcome_text(outcome, _, renderer.refusal_texts))
        except TelegramError:
            pass


# ----- leaving a running match ------------------------------------------------------------------
def leave_question(table: TableRow, _: Translator) -> tuple[str, InlineKeyboardMarkup]:
    """The confirmation a player answers before a computer player takes their seat."""
    text = _(
        "Leave the {game} table? A computer player takes your seat and plays on; you cannot come back to this match.",
        game=escape(game_title(table.game, _)),
    )
    markup = InlineKeyboardMarkup([[
        InlineKeyboardButton("🚪 " + _("Yes, leave"), callback_data=LeaveTable(table.table_id, "yes").encode()),
        InlineKeyboardButton(_("No, stay"), callback_data=LeaveTable(table.table_id, "no").encode()),
    ]])  # fmt: skip
    return text, markup


async def leave_command(update: Update, context: KarataContext) -> None:
    """/leave: in the private chat, for each running match of mine; in a group, for its table.
    The question goes to the private chat, where only the player can answer it."""
    chat, user, message = effective(update)
    _ = await chat_translator(context, chat, user)
    tables = await _my_live_tables(context, chat, user.id, message)
    playing = [table for table in tables if table.status == PLAYING]
    if not playing:
        await telegram_io.reply(message, _("You are not in a game right now."))
        return
    mine = await user_translator(context, user.id)
    for table in playing:
        text, markup = leave_question(table, mine)
        try:
            await context.bot.send_message(user.id, text, reply_markup=markup, parse_mode="HTML")
        except TelegramError:
            await telegram_io.reply(message, refusal_text("dm_closed", None, {}, _))
            return
    if chat.type != Chat.PRIVATE:
        await telegram_io.reply(message, _("I asked you in our private chat."))


async def press_leave(update: Update, context: KarataContext) -> None:
    """The hand's Leave button (ask), and the answers to the question (yes, no)."""
    query, data, chat, user, message, _ = await pressed(update, context, LeaveTable.parse)
    karata = context.karata
    table = await karata.store.get_table(data.table_id)
    if table is None or table.status != PLAYING:
        await telegram_io.answer(query, refusal_text("not_playing", None, {}, _))
        return
    if data.op == "ask":
        text, markup = leave_question(table, _)
        await telegram_io.answer(query)
        await telegram_io.reply(message, text, markup, html=True)
        return
    if data.op == "no":
        await telegram_io.answer(query, _("You stay at the table."))
        await _close_question(message)
        return
    outcome = await karata.service.computers.replace_with_computer(data.table_id, user.id)
    if not outcome.ok:
        await telegram_io.answer(query, outcome_text(outcome, _), alert=True)
        return
    await telegram_io.answer(query, _("You left the table; {name} plays on.", name=outcome.values.get("name", "")))
    await _close_question(message)


async def _close_question(message: Message) -> None:
    try:
        await message.delete()
    except TelegramError:  # an old message cannot be deleted; its buttons just do nothing more
        pass
